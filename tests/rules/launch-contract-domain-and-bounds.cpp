// The contract's domain must match the witness the kernel uses, and its block must fit the
// launch bounds; both are reported at the contract, with a note at the cause.
// RUN: not %carbide check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

constexpr int kBlock = 512;

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void flat(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 0.f;
}
// CHECK: launch-contract-domain-and-bounds.cpp:[[@LINE-5]]:1: error: launch contract of 'kernels::flat': domain = 2 but the kernel uses index_1d(); write domain = 1 or use the matching witness [carbide-launch-contract]
// CHECK: launch-contract-domain-and-bounds.cpp:[[@LINE-4]]:14: note: index_1d() used here

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(256)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void wide(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 0.f;
}
// CHECK: launch-contract-domain-and-bounds.cpp:[[@LINE-5]]:1: error: launch contract of 'kernels::wide': block has 512 threads, more than the kernel's CARBIDE_LAUNCH_BOUNDS(256); raise the bounds or shrink the block [carbide-launch-contract]
// CHECK: launch-contract-domain-and-bounds.cpp:[[@LINE-7]]:1: note: launch bounds declared here

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void good(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 0.f;
}

}  // namespace kernels
