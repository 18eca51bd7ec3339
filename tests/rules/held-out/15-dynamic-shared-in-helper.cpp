// VIOLATION: the kernel writes `dynamic_shared<float>()[lid]`; a helper makes its own dynamic_shared handle and reads the neighbour in the same phase; a helper's own handle is never paired with the caller's
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
namespace kernels {
float right_neighbour(const carbide::thread::local_index_witness& l) {
  auto d = carbide::block::dynamic_shared<float>();
  return d[(l.get() + 1) % 128];
}
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1), dynamic_shared = 512)
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto d = carbide::block::dynamic_shared<float>();
  d[lid] = 1.f;
  const float seen = right_neighbour(lid);
  carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = seen;
}
}
// CHECK: 15-dynamic-shared-in-helper.cpp:16:22: error: 'd[(l.get() + 1) % 128]' (in the helper called by 'right_neighbour(lid)') reads a slot of dynamic shared memory that another thread may write in this barrier phase; put carbide::block::sync() between the write and the read [carbide-shared-race]
