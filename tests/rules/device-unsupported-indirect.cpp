// carbide-device-unsupported for calls the checker cannot follow (issue 29): a function used as a
// value (its pointer, a member function's pointer, handed to std::invoke). A barrier reached that
// way is not seen as one, so each is refused. A lambda handed to std::invoke is followed into the
// library's template, where its barrier is held to carbide-divergent-barrier; direct calls and
// lambdas called in place are accepted.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

#include <functional>

namespace kernels {

struct Stepper {
  void step() const { carbide::block::sync(); }
};

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void function_pointers(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  void (*barrier)() = &carbide::block::sync;
  // CHECK: device-unsupported-indirect.cpp:[[@LINE-1]]:24: error: 'carbide::block::sync' is used as a value (a pointer to it)
  if (lid.get() < 16) barrier();
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 1.f;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void invoked(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  if (lid.get() < 16) std::invoke(carbide::block::sync);
  // CHECK: device-unsupported-indirect.cpp:[[@LINE-1]]:35: error: 'carbide::block::sync' is used as a value (a pointer to it)
  const Stepper stepper;
  auto member = &Stepper::step;
  // CHECK: device-unsupported-indirect.cpp:[[@LINE-1]]:18: error: 'kernels::Stepper::step' is used as a value (a pointer to it)
  (stepper.*member)();
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 1.f;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void library_calls_lambda(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto barrier = [] { carbide::block::sync(); };
  if (lid.get() < 16) std::invoke(barrier);
  // CHECK: device-unsupported-indirect.cpp:[[@LINE-1]]:23: error: 'std::invoke(barrier)' reaches 'carbide::block::sync()' and is under 'lid.get() < 16', which differs between threads
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 1.f;
}

// Good: the same barriers called directly, in place or through a lambda the kernel calls.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void good(carbide::disjoint_span<float> out) {
  const Stepper stepper;
  stepper.step();
  auto barrier = [] { carbide::block::sync(); };
  barrier();
  carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 1.f;
}

}  // namespace kernels
