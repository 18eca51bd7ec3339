// Kernels the GPU tests launch through a module translated for sm_90a alone (CMakeLists.txt), so
// that the tile GEMM is planned on wgmma fed by TMA (docs/tile-lowering.md).
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

namespace gpu_hopper {

namespace ct = carbide::tile;

template <int BM, int BN, int BK>
CARBIDE_TILE_KERNEL
void gemm(ct::out<ct::bf16, ct::shape<BM, BN>> c, ct::in<ct::bf16, 2> a, ct::in<ct::bf16, 2> b, float alpha) {
  auto [bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<BM, BK>{});
  auto pb = b.partition(ct::shape<BK, BN>{});
  auto acc = ct::zeros<float, ct::shape<BM, BN>>();
  for (int k : ct::irange(pa.tiles(1)))
    acc = ct::mma(pa.load(bm, k), pb.load(k, bn), acc);
  c.store(ct::cast<ct::bf16>(acc * alpha));
}
// The tests launch it from another file: the instance is named here.
template void gemm<128, 256, 64>(ct::out<ct::bf16, ct::shape<128, 256>>, ct::in<ct::bf16, 2>, ct::in<ct::bf16, 2>, float);

// A GEMM epilogue on the wgmma plan's accumulator: a bias row spread over the rows, GELU through
// a function over tiles, a residual tile, and each row's largest accumulated value.
template <class T>
T gelu(const T& x) {
  return 0.5f * x * (1.0f + ct::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
}
template <int BM, int BN, int BK>
CARBIDE_TILE_KERNEL
void gemm_epilogue(ct::out<ct::bf16, ct::shape<BM, BN>> c,
                   ct::out<float, ct::shape<BM, 1>> row_max,  // NOLINT(carbide-tile-grid): one column a tile of c
                   ct::in<ct::bf16, 2> a, ct::in<ct::bf16, 2> b, ct::in<float, 1> bias, ct::in<ct::bf16, 2> res) {
  auto [bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<BM, BK>{});
  auto pb = b.partition(ct::shape<BK, BN>{});
  auto pbias = bias.partition(ct::shape<BN>{});
  auto acc = ct::zeros<float, ct::shape<BM, BN>>();
  for (int k : ct::irange(pa.tiles(1)))
    acc = ct::mma(pa.load(bm, k), pb.load(k, bn), acc);
  c.store(ct::cast<ct::bf16>(gelu(acc + ct::bcast<0>(pbias.load(bn), acc)) + ct::cast<float>(ct::load_like(res, c))));
  row_max.store(ct::reshape<ct::shape<BM, 1>>(ct::reduce_max<1>(acc)));
}
template void gemm_epilogue<128, 256, 64>(ct::out<ct::bf16, ct::shape<128, 256>>, ct::out<float, ct::shape<128, 1>>,
                                          ct::in<ct::bf16, 2>, ct::in<ct::bf16, 2>, ct::in<float, 1>, ct::in<ct::bf16, 2>);

}  // namespace gpu_hopper
