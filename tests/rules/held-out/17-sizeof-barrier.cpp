// VIOLATION: `(void)sizeof((block::sync(), 0))`: a barrier in an unevaluated operand ends a phase for the walker but never runs
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
  (void)sizeof((carbide::block::sync(), 0));
  const float seen = tile[(lid.get() + 1) % 128];
  carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = seen;
}
}
// CHECK: 17-sizeof-barrier.cpp:13:17: error: 'carbide::block::sync()' is a barrier inside a larger expression, where C++ does not fix the order it runs in against the rest (or never runs it): call it as a statement of its own [carbide-device-unsupported]
// CHECK: 17-sizeof-barrier.cpp:14:22: error: 'tile[(lid.get() + 1) % 128]' reads a slot of 'tile' that another thread may write in this barrier phase; put carbide::block::sync() between the write and the read [carbide-shared-race]
