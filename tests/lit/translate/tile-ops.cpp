// Every op of <carbide/tile.hpp> that the translator lowers reaches a device implementation:
// one kernel uses each (in f32, f16 and bf16), translated and compiled by nvcc; and f16 tiles
// reach tensor cores like bf16 ones.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck %s < %t/tile-ops.carbide.cu
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

namespace ct = carbide::tile;

namespace kernels {

CARBIDE_TILE_KERNEL
void every_op(ct::out<float, ct::shape<2, 128>> y, ct::out<ct::f16, ct::shape<2, 128>> h, ct::in<float, 2> x,
              ct::in<ct::bf16, 2> w, float alpha) {
  auto t = ct::load_like(x, y, ct::pad(0.0f));
  auto b = ct::cast<float>(ct::load_like(w, y));
  auto a = ct::exp(t) + ct::exp2(t) - ct::log(ct::abs(t) + 1.0f) * ct::sqrt(ct::abs(b)) / ct::rsqrt(b * b + 1.0f);
  auto m = ct::max(ct::tanh(a), ct::min(t, b)) + ct::fma(t, b, a) + (-t);
  auto picked = ct::select(t < b, m, ct::select(t >= alpha, a, ct::full<float, ct::shape<2, 128>>(alpha)));
  auto flags = ct::cast<float>((t <= b) == (t > 0.0f)) + ct::cast<float>(t != b);
  auto index = ct::cast<float>(ct::iota<int, ct::shape<2, 128>>());
  auto row_sum = ct::bcast<1>(ct::reduce_sum<1>(picked), picked);
  auto row_span = ct::bcast<1>(ct::reduce_max<1>(picked) - ct::reduce_min<1>(picked), picked);
  auto flat = ct::reshape<ct::shape<256>>(picked + flags + index);
  y.store(ct::reshape<ct::shape<2, 128>>(flat) + row_sum / row_span + ct::zeros<float, ct::shape<2, 128>>());
  h.store(ct::cast<ct::f16>(picked));
}
// CHECK: carbide_kernels_every_op(

CARBIDE_TILE_KERNEL
void gemm_f16(ct::out<float, ct::shape<128, 128>> c, ct::in<ct::f16, 2> a, ct::in<ct::f16, 2> b) {
  auto [bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<128, 32>{});
  auto pb = b.partition(ct::shape<32, 128>{});
  auto acc = ct::zeros<float, ct::shape<128, 128>>();
  for (int k : ct::irange(pa.tiles(1)))
    acc = ct::mma(pa.load(bm, k), pb.load(k, bn), acc);
  c.store(acc);
}
// CHECK: using P0 = ctd::sm80::gemm_plan<carbide::tile::f16, 128, 128, 32, 2, 2, 3>;

}  // namespace kernels
