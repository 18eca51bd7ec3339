// The butterfly of shared-race-host-precondition.cpp with the host's guarantee stated in the
// kernel: a power of two from 2 to 512, so the pairs at stride arrayLength / 2 never meet.
// RUN: %corpus_check %s 2>&1 | count 0
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
  // What the host asserts of the length, stated where the checker can rely on it.
  CARBIDE_REQUIRE(arrayLength >= 2 && arrayLength <= 512 && (arrayLength & (arrayLength - 1)) == 0);
  const unsigned stride = arrayLength / 2;
  const unsigned pos = 2 * tid - (tid & (stride - 1));
  const unsigned a = s[pos], b = s[pos + stride];
  s[pos] = a < b ? a : b;
  s[pos + stride] = a < b ? b : a;
  carbide::block::sync();
  if (unsigned* o = out.get_mut(idx)) *o = s[tid];
}

}  // namespace kernels
