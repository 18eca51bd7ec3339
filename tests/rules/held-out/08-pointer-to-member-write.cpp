// VIOLATION: `tile[lid/2].*field = x` (pointer to data member): parent is `.*`, classified as a read
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
namespace kernels {
struct Cell { float v; };
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<Cell, 128>();
  float Cell::*field = &Cell::v;
  tile[lid.get() / 2].*field = 1.f;
  carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = tile[lid].v;
}
}
// CHECK: 08-pointer-to-member-write.cpp:13:3: error: 'tile[lid.get() / 2]' may update the same slot of 'tile' from different threads at once; count with tile.fetch_add(i, v), an atomic add, or index it by the local witness [carbide-shared-race]
