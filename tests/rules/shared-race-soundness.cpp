// carbide-shared-race where an index is not what it seems (issue 29): a helper's thread-dependent
// result, an index changed through a reference parameter, and counters that really wrap (one
// whose loop's test lets a wrapping value in, one whose loop ends on another counter). Each is
// modelled as it is and reported; bounded counters and uniform helpers stay proven.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

unsigned half_thread() { return carbide::thread::thread_idx().x / 2; }
void halve(unsigned& i) { i /= 2; }
unsigned twice(unsigned n) { return 2 * n; }

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void helpers(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 128>();
  tile[half_thread()] = 1.f;
  // CHECK: shared-race-soundness.cpp:[[@LINE-1]]:3: error: 'tile[half_thread()]' may write the same slot of 'tile' from different threads
  carbide::block::sync();
  unsigned i = lid.get();
  halve(i);
  tile[i] = 2.f;
  // CHECK: shared-race-soundness.cpp:[[@LINE-1]]:3: error: 'tile[i]' may write the same slot of 'tile' from different threads
  carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* e = out.get_mut(idx)) *e = tile[lid];
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void wrapping(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 2048>();
  // Thread 0 starts at 0xFFFFFF00 and reaches 0x100, thread 1's start, by wrapping.
  for (unsigned j = lid.get() == 0 ? 0xFFFFFF00u : 0x100u; j != 0x400u; j += 0x100u)
    if (lid.get() < 2) tile[j & 2047u] = 1.f;
  // CHECK: shared-race-soundness.cpp:[[@LINE-1]]:24: error: 'tile[j & 2047u]' may write the same slot of 'tile' from different threads
  carbide::block::sync();
  // s shifts its bit out to 0 on the third pass: thread 1 then writes thread 0's second slot.
  for (unsigned s = 1u << 30, n = 0; n < 3; s <<= 1, ++n)
    if (lid.get() < 2) tile[(s >> 30) + 2 * lid.get()] = 2.f;
  // CHECK: shared-race-soundness.cpp:[[@LINE-1]]:24: error: 'tile[(s >> 30) + 2 * lid.get()]' may write the same slot of 'tile' from different threads
  carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* e = out.get_mut(idx)) *e = tile[lid];
}

// Good: the same shapes where nothing wraps or hides, and a helper of uniform arguments.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void good(carbide::disjoint_span<float> out, unsigned n) {
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 2048>();
  for (unsigned j = lid.get() == 0 ? 0xFFFFFF00u : 0x100u; j < 0x400u; j += 0x100u)
    if (lid.get() < 2) tile[j & 2047u] = 1.f;
  carbide::block::sync();
  tile[lid.get() + twice(n % 4) * 256] = 2.f;
  carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* e = out.get_mut(idx)) *e = tile[lid];
}

}  // namespace kernels
