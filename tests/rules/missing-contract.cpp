// A kernel without a contract is a warning, translation goes on, and the module offers only
// an unsafe_launch_ entry for it. --warnings-as-errors turns it into an error.
// RUN: rm -rf %t && %carbide_translate %s -o %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: FileCheck --check-prefix=HPP %s < %t/missing-contract.carbide.hpp
// RUN: not %carbide check %s --warnings-as-errors='carbide-missing-contract' 2> %t.werr
// RUN: FileCheck --check-prefix=WERR %s < %t.werr
// RUN: %carbide check %s --checks='*,-carbide-missing-contract' 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
void fill(carbide::disjoint_span<float> out, float value) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = value;
}
// CHECK: missing-contract.cpp:[[@LINE-4]]:6: warning: kernel 'kernels::fill' has no CARBIDE_LAUNCH_CONTRACT, so its launches cannot be checked; it gets only 'unsafe_launch_fill'. Add e.g. CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1)) [carbide-missing-contract]
// WERR: missing-contract.cpp:[[@LINE-5]]:6: error: kernel 'kernels::fill' has no CARBIDE_LAUNCH_CONTRACT

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(128)
void bounded_but_unchecked(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = in[idx.get()];
}
// CHECK: missing-contract.cpp:[[@LINE-4]]:6: warning: kernel 'kernels::bounded_but_unchecked' has no CARBIDE_LAUNCH_CONTRACT
// WERR: missing-contract.cpp:[[@LINE-5]]:6: error: kernel 'kernels::bounded_but_unchecked' has no CARBIDE_LAUNCH_CONTRACT

// Good: a contract, so prepare_copy and copy exist.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void copy(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = in[idx.get()];
}
// HPP: void unsafe_launch_fill(const carbide::Stream& stream, const carbide::LaunchConfig& config,
// HPP-NEXT: carbide::DeviceBuffer<float>& out,
// HPP-NEXT: float value) const;
// HPP-NOT: prepare_fill
// HPP: carbide::Prepared<copy_kernel> prepare_copy(const carbide::LaunchConfig& config) const;

}  // namespace kernels
