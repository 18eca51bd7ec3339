// carbide-tile-grid: the outs of one tile kernel give one grid, so they are partitioned alike.
// Another rank never fits (an error); another tile shape fits only for some extents (a warning;
// the launch checks the grids and throws when they differ).
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: --implicit-check-not=warning: < %t.err
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

namespace ct = carbide::tile;

namespace kernels {

CARBIDE_TILE_KERNEL
void two_ranks(ct::out<float, ct::shape<1, 256>> y, ct::out<float, ct::shape<256>> stats, ct::in<float, 2> x) {
  auto t = ct::load_like(x, y);
  y.store(t);
  stats.store(ct::reshape<ct::shape<256>>(t));
}
// CHECK: tile-grid.cpp:[[@LINE-5]]:84: error: in tile kernel 'kernels::two_ranks': 'stats' is partitioned into tiles of shape<256> and 'y' into tiles of shape<1, 256>, of another rank, so the two never give one grid; give every out of the kernel one tile shape [carbide-tile-grid]

CARBIDE_TILE_KERNEL
void two_shapes(ct::out<float, ct::shape<2, 128>> y, ct::out<float, ct::shape<4, 64>> z, ct::in<float, 2> x) {
  auto t = ct::load_like(x, y);
  y.store(t);
  z.store(ct::reshape<ct::shape<4, 64>>(t));
}
// CHECK: tile-grid.cpp:[[@LINE-5]]:87: warning: in tile kernel 'kernels::two_shapes': 'z' is partitioned into tiles of shape<4, 64> and 'y' into tiles of shape<2, 128>, so a launch works only when both give the same tiles per axis (it throws otherwise); give every out of the kernel one tile shape [carbide-tile-grid]

// Good: both outs in tiles of one shape.
CARBIDE_TILE_KERNEL
void split(ct::out<float, ct::shape<1, 256>> lo, ct::out<float, ct::shape<1, 256>> hi, ct::in<float, 2> x) {
  auto t = ct::load_like(x, lo);
  lo.store(ct::min(t, ct::full<float, ct::shape<1, 256>>(0.0f)));
  hi.store(ct::max(t, ct::full<float, ct::shape<1, 256>>(0.0f)));
}

}  // namespace kernels
