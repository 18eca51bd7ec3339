// VIOLATION: an unused lambda `[]{ block::sync(); }` defined between a write and a neighbour read: the phase walker counts the barrier in the lambda's body where it is written
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out, unsigned n) {
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 128>();
  tile[lid] = 1.f;
  auto never = [] { carbide::block::sync(); };
  (void)never;
  const float seen = tile[(lid.get() + 1) % 128];
  carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = seen;
}
}
// CHECK: 16-unused-lambda-barrier.cpp:15:22: error: 'tile[(lid.get() + 1) % 128]' reads a slot of 'tile' that another thread may write in this barrier phase; put carbide::block::sync() between the write and the read [carbide-shared-race]
