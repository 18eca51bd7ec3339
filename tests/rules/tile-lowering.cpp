// carbide-tile-lowering: tile kernels the language allows but the lowering for the target cannot
// take, each reported at the op with what to write instead; check plans as translate does, so
// these never reach nvcc. With --cuda-arch, check judges by that target's lowering.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
// RUN: not %carbide check %s --cuda-arch sm_80 2> %t.sm80
// RUN: FileCheck --check-prefix=SM80 %s < %t.sm80
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

namespace ct = carbide::tile;

namespace kernels {

CARBIDE_TILE_KERNEL
void narrow_n(ct::out<float, ct::shape<64, 24>> s, ct::in<ct::bf16, 2> q, ct::in<ct::bf16, 2> k) {
  auto [i, j] = s.coord();
  auto pq = q.partition(ct::shape<64, 64>{});
  auto pk = k.partition(ct::shape<64, 24>{});
  s.store(ct::mma(pq.load(i, 0), pk.load(0, j), ct::zeros<float, ct::shape<64, 24>>()));
}
// CHECK: tile-lowering.cpp:[[@LINE-2]]:11: error: in tile kernel 'kernels::narrow_n': mma in a tile kernel's body is lowered for m and n multiples of 16 and k of 16, 32 or a multiple of 64 (n too, for a b read as it lies); this one is 64×24×64 [carbide-tile-lowering]
// SM80: tile-lowering.cpp:[[@LINE-3]]:11: error: {{.*}}this one is 64×24×64 [carbide-tile-lowering]

CARBIDE_TILE_KERNEL
void batch_of_two(ct::out<float, ct::shape<2, 64, 64>> s, ct::in<ct::bf16, 3> q, ct::in<ct::bf16, 3> k) {
  auto [z, i, j] = s.coord();
  auto pq = q.partition(ct::shape<2, 64, 64>{});
  auto pk = k.partition(ct::shape<2, 64, 64>{});
  s.store(ct::mma(pq.load(z, i, 0), pk.load(z, 0, j), ct::zeros<float, ct::shape<2, 64, 64>>()));
}
// CHECK: tile-lowering.cpp:[[@LINE-2]]:11: error: in tile kernel 'kernels::batch_of_two': mma of a batch of 2 matrices in one tile is lowered for one matrix a tile block; partition the batch axis in tiles of 1 [carbide-tile-lowering]
// SM80: tile-lowering.cpp:[[@LINE-3]]:11: error: {{.*}}partition the batch axis in tiles of 1 [carbide-tile-lowering]

CARBIDE_TILE_KERNEL
void two_products(ct::out<float, ct::shape<128, 128>> c, ct::in<ct::bf16, 2> a, ct::in<ct::bf16, 2> b) {
  auto [bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<128, 64>{});
  auto pb = b.partition(ct::shape<64, 128>{});
  auto square = b.partition(ct::shape<128, 128>{});
  auto acc = ct::zeros<float, ct::shape<128, 128>>();
  for (int k : ct::irange(pa.tiles(1)))
    acc = ct::mma(pa.load(bm, k), pb.load(k, bn), acc);
  c.store(ct::mma(ct::cast<ct::bf16>(acc), square.load(0, bn), acc));
}
// CHECK: tile-lowering.cpp:[[@LINE-2]]:11: error: in tile kernel 'kernels::two_products': a kernel with a GEMM k-loop is lowered with that loop's mma alone; compute this product in a kernel of its own [carbide-tile-lowering]
// SM80: tile-lowering.cpp:[[@LINE-3]]:11: error: {{.*}}compute this product in a kernel of its own [carbide-tile-lowering]

// 147 KiB of mma.sync stages: more than sm_86 and sm_89 give (the default targets include
// them); sm_80 alone has room.
CARBIDE_TILE_KERNEL
void wide_gemm(ct::out<ct::bf16, ct::shape<128, 256>> c, ct::in<ct::bf16, 2> a, ct::in<ct::bf16, 2> b) {
  auto [bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<128, 64>{});
  auto pb = b.partition(ct::shape<64, 256>{});
  auto acc = ct::zeros<float, ct::shape<128, 256>>();
  for (int k : ct::irange(pa.tiles(1)))
    acc = ct::mma(pa.load(bm, k), pb.load(k, bn), acc);
  c.store(ct::cast<ct::bf16>(acc));
}
// CHECK: tile-lowering.cpp:[[@LINE-3]]:11: error: in tile kernel 'kernels::wide_gemm': this tile kernel's lowering needs 147456 bytes of shared memory a block, more than sm_86 gives (101376); use smaller tiles, or translate for the architectures that have it (--cuda-arch) [carbide-tile-lowering]

// A row of 12 chunks of 8 (96 elements) over 64 threads: the row reduction cannot split it.
CARBIDE_TILE_KERNEL
void odd_rows(ct::out<ct::bf16, ct::shape<8, 96>> y, ct::in<ct::bf16, 2> x) {
  auto t = ct::cast<float>(ct::load_like(x, y));
  y.store(ct::cast<ct::bf16>(t - ct::bcast<1>(ct::reduce_max<1>(t), t)));
}
// CHECK: tile-lowering.cpp:[[@LINE-2]]:47: error: in tile kernel 'kernels::odd_rows': a reduction over rows of 96 elements is lowered when a row is a power of two of 8-element chunks; pad the tile's last extent to one (the padding is masked) [carbide-tile-lowering]
// SM80: tile-lowering.cpp:[[@LINE-3]]:47: error: {{.*}}pad the tile's last extent to one (the padding is masked) [carbide-tile-lowering]

// Good: a product in the body with n of 16, a GEMM whose stages fit the smallest target.
CARBIDE_TILE_KERNEL
void narrow_scores(ct::out<float, ct::shape<64, 16>> s, ct::in<ct::bf16, 2> q, ct::in<ct::bf16, 2> k) {
  auto [i, j] = s.coord();
  auto pq = q.partition(ct::shape<64, 64>{});
  auto pk = k.partition(ct::shape<16, 64>{});
  s.store(ct::mma(pq.load(i, 0), ct::transpose(pk.load(j, 0)), ct::zeros<float, ct::shape<64, 16>>()));
}

CARBIDE_TILE_KERNEL
void square_gemm(ct::out<ct::bf16, ct::shape<128, 128>> c, ct::in<ct::bf16, 2> a, ct::in<ct::bf16, 2> b) {
  auto [bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<128, 32>{});
  auto pb = b.partition(ct::shape<32, 128>{});
  auto acc = ct::zeros<float, ct::shape<128, 128>>();
  for (int k : ct::irange(pa.tiles(1)))
    acc = ct::mma(pa.load(bm, k), pb.load(k, bn), acc);
  c.store(ct::cast<ct::bf16>(acc));
}

}  // namespace kernels
