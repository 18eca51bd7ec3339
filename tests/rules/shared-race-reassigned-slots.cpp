// carbide-shared-race over a slot the thread reassigns by a step: cuda-samples scan's
// scan1Inclusive (`pos = 2 * t - (t & (size - 1)); s[pos] = 0; pos += size; s[pos] = idata;`)
// is accepted, since the solver follows `pos` through its step; a step of one, which lands on
// the next thread's first slot, is still reported.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace scan {

constexpr unsigned kBlock = 256;

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void scan1_inclusive(carbide::span<const unsigned> in, carbide::disjoint_span<unsigned> out) {
  auto idx = carbide::thread::index_1d();
  auto s_Data = carbide::block::shared<unsigned, 2 * kBlock>();
  const unsigned t = carbide::thread::thread_idx().x;
  const unsigned size = kBlock;
  const unsigned idata = idx.get() < in.size() ? in[idx.get()] : 0u;
  unsigned pos = 2 * t - (t & (size - 1));
  s_Data[pos] = 0;
  pos += size;
  s_Data[pos] = idata;
  for (unsigned offset = 1; offset < size; offset <<= 1) {
    carbide::block::sync();
    const unsigned v = s_Data[pos] + s_Data[pos - offset];
    carbide::block::sync();
    s_Data[pos] = v;
  }
  if (unsigned* o = out.get_mut(idx)) *o = s_Data[pos];
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void step_of_one(carbide::disjoint_span<unsigned> out) {
  auto idx = carbide::thread::index_1d();
  auto s = carbide::block::shared<unsigned, 2 * kBlock>();
  const unsigned t = carbide::thread::thread_idx().x;
  unsigned pos = t;
  s[pos] = 0;
  pos += 1;
  s[pos] = 1;
  // CHECK: shared-race-reassigned-slots.cpp:[[@LINE-1]]:3: error: 's[pos]' and 's[pos]' may write the same slot of 's' from different threads in one barrier phase
  // CHECK: note: the write in the same phase
  // CHECK: note: the checker could not prove the slots distinct
  carbide::block::sync();
  if (unsigned* o = out.get_mut(idx)) *o = s[t];
}

}  // namespace scan
