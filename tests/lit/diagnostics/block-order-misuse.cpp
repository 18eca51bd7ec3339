// A block order that does not fit the grid's dimensions is a compile error that names the orders
// that do: index_2d takes natural or grouped<R>, index_1d natural or reversed.
// RUN: not %carbide check %s 2>&1 | FileCheck %s
// CHECK-DAG: error: static assertion failed{{.*}}a block order of a 2-D grid is carbide::block_order::natural or carbide::block_order::grouped<R>
// CHECK-DAG: error: static assertion failed{{.*}}a block order of a 1-D grid is carbide::block_order::natural or carbide::block_order::reversed
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void reversed_rows(carbide::disjoint_span2d<float> out) {
  auto at = carbide::thread::index_2d<carbide::block_order::reversed>();
  if (float* e = out.get_mut(at)) *e = 1.f;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void grouped_line(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d<carbide::block_order::grouped<2>>();
  if (float* e = out.get_mut(idx)) *e = 1.f;
}

}  // namespace kernels
