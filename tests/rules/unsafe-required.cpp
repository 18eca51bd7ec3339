// carbide-unsafe-required: unchecked operations need CARBIDE_UNSAFE with a reason;
// carbide-unsafe-reason: that reason may not be empty.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: --implicit-check-not=warning: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

// A reduction that reads through the raw data() pointer to skip the bounds check.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void sum_pairs(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const float* raw = in.data();
  if (float* o = out.get_mut(idx)) *o = raw[2 * idx.get()] + *(raw + 2 * idx.get() + 1);
  // CHECK: unsafe-required.cpp:[[@LINE-1]]:41: error: indexing through raw pointer 'raw', whose target the checker cannot tell; wrap it in CARBIDE_UNSAFE("why this is sound") { ... } or reach the memory through a view [carbide-unsafe-required]
  // CHECK: unsafe-required.cpp:[[@LINE-2]]:62: error: dereference of raw pointer '(raw + 2 * idx.get() + 1)'
}

// Casting constness away and inline asm.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void poke(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  float* writable = const_cast<float*>(in.data());
  // CHECK: unsafe-required.cpp:[[@LINE-1]]:21: error: const_cast can make read-only memory writable
  asm volatile("membar.gl;");
  // CHECK: unsafe-required.cpp:[[@LINE-1]]:3: error: inline asm is unchecked
  if (float* o = out.get_mut(idx)) *o = writable == nullptr;
}

// Good: the same reads inside CARBIDE_UNSAFE, one of them without a reason (a warning).
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void sum_pairs_checked(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (2 * idx.get() + 1 >= in.size()) return;
  float value = 0.f;
  CARBIDE_UNSAFE("2 * idx + 1 < in.size() was checked above") {
    const float* raw = in.data();
    value = raw[2 * idx.get()] + raw[2 * idx.get() + 1];
  }
  CARBIDE_UNSAFE("") { asm volatile("membar.gl;"); }
  // CHECK: unsafe-required.cpp:[[@LINE-1]]:3: warning: CARBIDE_UNSAFE block without a reason{{.*}} [carbide-unsafe-reason]
  CARBIDE_UNSAFE("   ") { value += 0.f; }
  // CHECK: unsafe-required.cpp:[[@LINE-1]]:3: warning: CARBIDE_UNSAFE block without a reason{{.*}} [carbide-unsafe-reason]
  float local = value;
  float* mine = &local;
  if (float* o = out.get_mut(idx)) *o = *mine;
}

// Naming Carbide's internals to skip a shared array's bounds check.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void forged_proof(carbide::span<const float> in, unsigned at, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto tile = carbide::block::shared<float, 256>();
  float value = tile[carbide::detail::in_range(at)];
  // CHECK: unsafe-required.cpp:[[@LINE-1]]:22: error: 'carbide::detail::in_range' is internal to Carbide and may skip its checks
  if (float* o = out.get_mut(idx)) *o = value + in[idx.get()];
}

}  // namespace kernels
