// VIOLATION: `tile[0].v = x` from every thread: the parent of `tile[0]` is a MemberExpr, so the access is classified as a read
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
namespace kernels {
struct S { float v; };
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out, unsigned n) {
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<S, 128>();
  tile[0].v = float(lid.get());
  carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = tile[0].v;
}
}
// CHECK: 07-member-write-on-shared-element.cpp:12:3: error: 'tile[0]' may write the same slot of 'tile' from different threads; index it by the local witness, or let one thread write (e.g. if (lid.get() == 0)) [carbide-shared-race]
