// The contract's domain must match the witness the kernel uses, and its block must fit the
// launch bounds; both are reported at the contract, with a note at the cause.
// RUN: not %corpus_check %s 2> %t.err
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

// Every witness counts, not only the body's first: a second one, and one a helper makes.
float from_helper() {
  auto idx = carbide::thread::index_1d();
  return float(idx.get());
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void mixed(carbide::disjoint_span2d<float> out) {
  auto cell = carbide::thread::index_2d();
  auto flat = carbide::thread::index_1d();
  if (float* o = out.get_mut(cell)) *o = float(flat.get()) + from_helper();
}
// CHECK: launch-contract-domain-and-bounds.cpp:[[@LINE-6]]:1: error: launch contract of 'kernels::mixed': domain = 2 but 'kernels::from_helper', which the kernel calls, uses index_1d(); write domain = 1 or use the matching witness [carbide-launch-contract]
// CHECK: launch-contract-domain-and-bounds.cpp:[[@LINE-12]]:14: note: index_1d() used here
// CHECK: launch-contract-domain-and-bounds.cpp:[[@LINE-8]]:1: error: launch contract of 'kernels::mixed': domain = 2 but the kernel uses index_1d(); write domain = 1 or use the matching witness [carbide-launch-contract]
// CHECK: launch-contract-domain-and-bounds.cpp:[[@LINE-6]]:15: note: index_1d() used here

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

// A halo as wide as the block: no thread is inner along y, so nothing would be written.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1))
void all_halo(carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d_halo<4>();
  if (float* o = out.get_mut(own)) *o = 0.f;
}
// CHECK: launch-contract-domain-and-bounds.cpp:[[@LINE-5]]:1: error: launch contract of 'kernels::all_halo': a halo of 4 on each side takes all 8 threads along y, so index_2d_halo<4>() leaves no inner thread and the kernel writes nothing; widen the block beyond 8 or narrow the halo [carbide-launch-contract]
// CHECK: launch-contract-domain-and-bounds.cpp:[[@LINE-4]]:14: note: index_2d_halo<4>() used here

// warp_index_1d() numbers warps by blockIdx.x: a second row of blocks would repeat the numbers.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 4, 1))
void warps_of_a_2d_grid(carbide::disjoint_span<float> mean) {
  auto warp = carbide::thread::warp_index_1d();
  if (float* m = mean.get_mut_warp_leader(warp)) *m = 0.f;
}
// CHECK: launch-contract-domain-and-bounds.cpp:[[@LINE-5]]:1: error: launch contract of 'kernels::warps_of_a_2d_grid': domain = 2 but the kernel uses warp_index_1d(); write domain = 1 or use the matching witness [carbide-launch-contract]
// CHECK: launch-contract-domain-and-bounds.cpp:[[@LINE-4]]:15: note: warp_index_1d() used here

// Good: a halo of 3 leaves 250 of 256 threads inner.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void inner_threads(carbide::disjoint_span<float> out) {
  auto own = carbide::thread::index_1d_halo<3>();
  if (float* o = out.get_mut(own)) *o = 0.f;
}

}  // namespace kernels
