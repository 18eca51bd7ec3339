// carbide-divergent-barrier where uniformity is not what it seems (issue 29): a helper whose body
// is thread-dependent, a kernel parameter the kernel assigns, writes through a reference, to a
// member, by std::swap, and through a lambda's reference capture. Each condition is as
// divergent as what was written into it; the uniform spellings beside them are accepted.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

#include <utility>

namespace kernels {

bool first_half() { return carbide::thread::thread_idx().x < 16; }
unsigned half(unsigned n) { return n / 2; }

struct Limits {
  unsigned count;
};

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void helpers(carbide::disjoint_span<float> out, unsigned n) {
  if (first_half()) carbide::block::sync();
  // CHECK: divergent-barrier-soundness.cpp:[[@LINE-1]]:21: error: 'carbide::block::sync()' is under 'first_half()', which differs between threads
  if (half(n) > 4) carbide::block::sync();  // good: a helper of uniform arguments
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 1.f;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void assigned_parameter(carbide::disjoint_span<float> out, unsigned limit, unsigned count) {
  auto lid = carbide::thread::local_index();
  limit = lid.get();
  if (limit < 16) carbide::block::sync();
  // CHECK: divergent-barrier-soundness.cpp:[[@LINE-1]]:19: error: 'carbide::block::sync()' is under 'limit < 16', which differs between threads
  count = count / 2;
  if (count > 4) carbide::block::sync();  // good: assigned a uniform value
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 1.f;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void aliases(carbide::disjoint_span<float> out, unsigned a, unsigned b, Limits limits) {
  auto lid = carbide::thread::local_index();
  unsigned& through_reference = a;
  through_reference = lid.get();
  if (a < 16) carbide::block::sync();
  // CHECK: divergent-barrier-soundness.cpp:[[@LINE-1]]:15: error: 'carbide::block::sync()' is under 'a < 16', which differs between threads
  unsigned mine = lid.get();
  std::swap(b, mine);
  if (b < 16) carbide::block::sync();
  // CHECK: divergent-barrier-soundness.cpp:[[@LINE-1]]:15: error: 'carbide::block::sync()' is under 'b < 16', which differs between threads
  limits.count = lid.get();
  if (limits.count < 16) carbide::block::sync();
  // CHECK: divergent-barrier-soundness.cpp:[[@LINE-1]]:26: error: 'carbide::block::sync()' is under 'limits.count < 16', which differs between threads
  unsigned captured = 0;
  auto set = [&captured] { captured = carbide::thread::thread_idx().x; };
  set();
  if (captured < 16) carbide::block::sync();
  // CHECK: divergent-barrier-soundness.cpp:[[@LINE-1]]:22: error: 'carbide::block::sync()' is under 'captured < 16', which differs between threads
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 1.f;
}

// A full-warp collective in a block of 48 threads: the second warp has 16 lanes, whatever the
// control flow.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (48, 1, 1))
void partial_warp(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const float total = carbide::warp::reduce_add(in[idx.get()]);
  // CHECK: divergent-barrier-soundness.cpp:[[@LINE-1]]:23: error: 'carbide::warp::reduce_add(in[idx.get()])' reads all 32 lanes of a warp, but a block of 48 threads leaves its last warp 16 lanes; make the contract's block a multiple of 32 [carbide-divergent-barrier]
  if (float* o = out.get_mut(idx)) *o = total;
}

// Good: a struct parameter read, copied and passed by value, and a lambda that only reads its
// reference capture.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void good(carbide::disjoint_span<float> out, Limits limits, unsigned n) {
  const Limits copy = limits;
  auto read = [&n] { return n * 2; };
  if (copy.count > 4 && read() > 8 && half(limits.count) > 1) carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 1.f;
}

}  // namespace kernels
