// Lambdas over a shared array, checked at their calls: a read at one call racing a write at
// another without a barrier between, two threads' stores to one slot through the lambda's
// parameter, a captured index taken as the value it had when the lambda was made; and a lambda
// handed to another function, whose calls are out of sight, refused where it is written.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void no_barrier(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 256>();
  auto load = [&](unsigned slot, float value) { tile[slot] = value; };
  const auto mirrored = [&tile](unsigned slot) { return tile[255 - slot]; };
  load(lid.get(), idx.get() < in.size() ? in[idx.get()] : 0.f);
  if (float* o = out.get_mut(idx)) *o = mirrored(lid.get());
  // CHECK: shared-race-lambdas.cpp:[[@LINE-1]]:41: error: 'tile[255 - slot]' (in the lambda called by 'mirrored(lid.get())') reads a slot of 'tile' that another thread may write in this barrier phase
  // CHECK: shared-race-lambdas.cpp:[[@LINE-4]]:57: note: the access in the lambda, checked as if inlined at the call
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void same_slot(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 256>();
  auto store = [&](unsigned slot, float value) { tile[slot] = value; };
  store(lid.get() / 2, 1.f);
  // CHECK: shared-race-lambdas.cpp:[[@LINE-1]]:3: error: 'tile[slot]' (in the lambda called by 'store(lid.get() / 2, 1.f)') may write the same slot of 'tile' from different threads
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tile[lid];
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void stale_capture(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 256>();
  unsigned slot = 0;
  auto store = [=] { tile[slot] = 1.f; };
  slot = lid.get();
  store();
  // CHECK: shared-race-lambdas.cpp:[[@LINE-1]]:3: error: 'tile[slot]' (in the lambda called by 'store()') may write the same slot of 'tile' from different threads
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tile[lid];
}

template <class F>
void twice(const F& f, unsigned slot) {
  f(slot);
  f(slot);
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void passed_on(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 256>();
  auto clear = [&](unsigned slot) { tile[slot] = 0.f; };
  // CHECK: shared-race-lambdas.cpp:[[@LINE-1]]:37: error: 'tile[slot]' is inside a lambda: the checker places a lambda's body where it is written, not where it is called
  twice(clear, lid.get());
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tile[lid];
}

}  // namespace kernels
