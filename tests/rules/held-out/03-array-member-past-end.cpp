// VIOLATION: `tile[lid].v[2]` on `struct {float v[2];}` reaches the next thread's element `tile[lid+1].v[0]`; the solver compares only the outer slot
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
namespace kernels {
struct Pair { float v[2]; };
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<Pair, 129>();
  unsigned two = 2;
  tile[lid].v[0] = 1.f;
  tile[lid].v[two] = 2.f;
  carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = tile[lid].v[1];
}
}
// CHECK: 03-array-member-past-end.cpp:14:3: error: 'tile[lid]' and 'tile[lid]' may write the same slot of 'tile' from different threads in one barrier phase; make the slots provably distinct or separate the writes with carbide::block::sync() [carbide-shared-race]
