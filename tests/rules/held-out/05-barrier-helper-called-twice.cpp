// VIOLATION: a helper with its own shared array writes, syncs, reads the neighbour; called twice, the tail read of call 1 and the head write of call 2 share a phase
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
namespace kernels {
float neighbour(const carbide::thread::local_index_witness& l, float v) {
  auto t = carbide::block::shared<float, 128>();
  t[l] = v;
  carbide::block::sync();
  return t[(l.get() + 1) % 128];
}
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  float a = neighbour(lid, 1.f);
  float b = neighbour(lid, a);
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = b;
}
}
// CHECK: 05-barrier-helper-called-twice.cpp:16:13: error: 't[(l.get() + 1) % 128]' (in the helper called by 'neighbour(lid, 1.f)') reads a slot of 't' that another thread may write in this barrier phase; put carbide::block::sync() between the write and the read [carbide-shared-race]
// CHECK: 05-barrier-helper-called-twice.cpp:17:13: error: 't[(l.get() + 1) % 128]' (in the helper called by 'neighbour(lid, a)') reads a slot of 't' that another thread may write in this barrier phase; put carbide::block::sync() between the write and the read [carbide-shared-race]
