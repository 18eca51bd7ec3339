// A butterfly whose stride comes from a kernel parameter is a race unless the host passes a power
// of two: the finding says which parameter the slots depend on and that CARBIDE_REQUIRE states
// such a guarantee (shared-race-host-precondition-good.cpp), not only fetch_add or the witness.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void merge_step(carbide::span<const unsigned> in, carbide::disjoint_span<unsigned> out, unsigned arrayLength) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto s = carbide::block::shared<unsigned, 512>();
  const unsigned tid = lid.get();
  s[tid] = in[idx.get()];
  s[tid + 256] = in[idx.get()];
  carbide::block::sync();
  const unsigned stride = arrayLength / 2;
  const unsigned pos = 2 * tid - (tid & (stride - 1));
  const unsigned a = s[pos], b = s[pos + stride];
  // CHECK: shared-race-host-precondition.cpp:[[@LINE-1]]:22: error: 's[pos]' reads a slot of 's' that another thread may write in this barrier phase
  // CHECK: shared-race-host-precondition.cpp:[[@LINE-2]]:22: note: the slots depend on 'arrayLength': if what the host guarantees of it (a power of two, a bound) keeps them apart, state it in the kernel with CARBIDE_REQUIRE(...), which the checker relies on
  // CHECK: shared-race-host-precondition.cpp:[[@LINE-3]]:34: error: 's[pos + stride]' reads a slot
  s[pos] = a < b ? a : b;
  // CHECK: shared-race-host-precondition.cpp:[[@LINE-1]]:3: error: 's[pos]' may write the same slot of 's' from different threads
  s[pos + stride] = a < b ? b : a;
  // CHECK: shared-race-host-precondition.cpp:[[@LINE-1]]:3: error: 's[pos + stride]' may write the same slot of 's' from different threads
  carbide::block::sync();
  if (unsigned* o = out.get_mut(idx)) *o = s[tid];
}

}  // namespace kernels
