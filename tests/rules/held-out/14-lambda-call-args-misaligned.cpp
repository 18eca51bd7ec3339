// VIOLATION: `put(tile, 0u)` for a lambda `[](auto& t, unsigned i){ t[i] = 1; }`: the operator() call's arguments include the closure object, so helper parameters bind to the wrong arguments and the write is lost
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out, unsigned n) {
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 128>();
  auto put = [](auto& t, unsigned i) { t[i] = 1.f; };
  put(tile, 0u);
  carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = tile[lid];
}
}
// CHECK: 14-lambda-call-args-misaligned.cpp:13:3: error: 't[i]' (in the helper called by 'put(tile, 0u)') may write the same slot of 'tile' from different threads; index it by the local witness, or let one thread write (e.g. if (lid.get() == 0)) [carbide-shared-race]
