// carbide-tile-shape: shapes that do not fit together in a tile kernel, each reported at the op
// with both shapes; the good kernels below are silent.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

namespace ct = carbide::tile;

namespace kernels {

CARBIDE_TILE_KERNEL
void mismatched_operands(ct::out<float, ct::shape<4, 256>> y, ct::in<float, 2> a, ct::in<float, 2> b) {
  auto pb = b.partition(ct::shape<4, 128>{});
  auto [i, j] = y.coord();
  y.store(ct::load_like(a, y) + pb.load(i, j));
}
// CHECK: tile-shape.cpp:[[@LINE-2]]:31: error: in tile kernel 'kernels::mismatched_operands': the operands of '+' have different shapes: shape<4, 256> and shape<4, 128>; bring them to one shape (ct::bcast, ct::reshape) first [carbide-tile-shape]

CARBIDE_TILE_KERNEL
void stored_shape(ct::out<float, ct::shape<1, 512>> y, ct::in<float, 2> x) {
  auto px = x.partition(ct::shape<1, 256>{});
  auto [i, j] = y.coord();
  y.store(px.load(i, j));
}
// CHECK: tile-shape.cpp:[[@LINE-2]]:5: error: in tile kernel 'kernels::stored_shape': the tile stored has shape<1, 256> but 'y' is a tile of shape<1, 512>; store a tile of the out's shape [carbide-tile-shape]

CARBIDE_TILE_KERNEL
void bcast_shape(ct::out<float, ct::shape<8, 64>> y, ct::in<float, 2> x) {
  auto t = ct::load_like(x, y);
  y.store(t - ct::bcast<0>(ct::reduce_max<1>(t), t));
}
// CHECK: tile-shape.cpp:[[@LINE-2]]:15: error: in tile kernel 'kernels::bcast_shape': bcast<0> broadcasts a tile of shape<8> to shape<8, 64>, which needs shape<64> (the shape without axis 0) [carbide-tile-shape]

CARBIDE_TILE_KERNEL
void mma_k(ct::out<float, ct::shape<64, 64>> c, ct::in<ct::bf16, 2> a, ct::in<ct::bf16, 2> b) {
  auto [i, j] = c.coord();
  auto pa = a.partition(ct::shape<64, 32>{});
  auto pb = b.partition(ct::shape<16, 64>{});
  auto acc = ct::zeros<float, ct::shape<64, 64>>();
  for (int k : ct::irange(pa.tiles(1)))
    acc = ct::mma(pa.load(i, k), pb.load(k, j), acc);
  c.store(acc);
}
// CHECK: tile-shape.cpp:[[@LINE-3]]:11: error: in tile kernel 'kernels::mma_k': mma multiplies a of shape<64, 32> by b of shape<16, 64>; a's columns and b's rows (k) must agree [carbide-tile-shape]

CARBIDE_TILE_KERNEL
void reshape_count(ct::out<float, ct::shape<256>> y, ct::in<float, 2> x) {
  auto px = x.partition(ct::shape<4, 32>{});
  auto [i] = y.coord();
  y.store(ct::reshape<ct::shape<256>>(px.load(i, 0)));
}
// CHECK: tile-shape.cpp:[[@LINE-2]]:11: error: in tile kernel 'kernels::reshape_count': reshape from shape<4, 32> (128 elements) to shape<256> (256) changes the element count [carbide-tile-shape]

CARBIDE_TILE_KERNEL
void partition_rank(ct::out<float, ct::shape<256>> y, ct::in<float, 2> x) {
  auto px = x.partition(ct::shape<256>{});
  auto [i] = y.coord();
  y.store(px.load(i));
}
// CHECK: tile-shape.cpp:[[@LINE-4]]:15: error: in tile kernel 'kernels::partition_rank': 'x' has rank 2 but is partitioned into shape<256> tiles of rank 1; give the shape one extent per axis [carbide-tile-shape]

CARBIDE_TILE_KERNEL
void batch_counts(ct::out<float, ct::shape<1, 64, 64>> c, ct::in<ct::bf16, 3> a, ct::in<ct::bf16, 3> b) {
  auto [z, i, j] = c.coord();
  auto pa = a.partition(ct::shape<1, 64, 32>{});
  auto pb = b.partition(ct::shape<2, 32, 64>{});
  c.store(ct::mma(pa.load(z, i, 0), pb.load(z, 0, j), ct::zeros<float, ct::shape<1, 64, 64>>()));
}
// CHECK: tile-shape.cpp:[[@LINE-2]]:11: error: in tile kernel 'kernels::batch_counts': mma multiplies a of shape<1, 64, 32> (a batch of 1) by b of shape<2, 32, 64> (a batch of 2); the batch extents must agree [carbide-tile-shape]

CARBIDE_TILE_KERNEL
void argmax_axis(ct::out<int, ct::shape<8>> y, ct::in<float, 2> x) {
  auto [i] = y.coord();
  auto px = x.partition(ct::shape<8, 64>{});
  auto where = ct::argmax<2>(px.load(i, 0));
  y.store(ct::zeros<int, ct::shape<8>>());
}
// CHECK: tile-shape.cpp:[[@LINE-3]]:16: error: in tile kernel 'kernels::argmax_axis': 'argmax' along axis 2 of a tile of shape<8, 64>, which has 2 axes [carbide-tile-shape]

CARBIDE_TILE_KERNEL
void load_coordinates(ct::out<float, ct::shape<8, 64>> y, ct::in<float, 2> x) {
  auto [i, j] = y.coord();
  auto px = x.partition(ct::shape<8, 64>{});
  y.store(px.load(i, ct::pad(0.0f)));
}
// CHECK: tile-shape.cpp:[[@LINE-2]]:14: error: in tile kernel 'kernels::load_coordinates': a load from a partition of 'x' (rank 2) takes one tile coordinate per axis; this one has 1 [carbide-tile-shape]

// Good: one shape throughout, reductions brought back with bcast.
CARBIDE_TILE_KERNEL
void normalize_rows(ct::out<float, ct::shape<4, 256>> y, ct::in<float, 2> x) {
  auto t = ct::load_like(x, y);
  auto centered = t - ct::bcast<1>(ct::reduce_sum<1>(t), t) * (1.0f / 256);
  y.store(centered / ct::bcast<1>(ct::reduce_max<1>(centered), centered));
}

}  // namespace kernels
