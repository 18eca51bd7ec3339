// `covers = x` names the 1-D view whose size() the grid's threads must equal: a scalar, a 2-D
// view, a name that is no parameter, or a 2-D domain is reported at the contract; a 1-D view of
// any kind under domain = 1 is accepted. So is `index_bits = 32`, and any other value of it is not.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1), covers = n)
void scalar(carbide::span<const float> in, carbide::disjoint_span<float> out, unsigned n) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = in[idx.get()] * float(n);
}
// CHECK: launch-contract-covers.cpp:[[@LINE-5]]:1: error: launch contract of 'kernels::scalar': 'covers = n' must name a span, disjoint_span or atomic_span parameter of the kernel, with domain = 1: the launch then checks that grid.x × block.x equals its size() [carbide-launch-contract]

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1), covers = missing)
void unknown(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = in[idx.get()];
}
// CHECK: launch-contract-covers.cpp:[[@LINE-5]]:1: error: launch contract of 'kernels::unknown': 'covers = missing' must name

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1), covers = out)
void two_d(carbide::disjoint_span2d<float> out) {
  if (float* o = out.get_mut(carbide::thread::index_2d())) *o = 0.f;
}
// CHECK: launch-contract-covers.cpp:[[@LINE-4]]:1: error: launch contract of 'kernels::two_d': 'covers = out' must name

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1), index_bits = 16)
void sixteen(carbide::disjoint_span<float> out) {
  if (float* o = out.get_mut(carbide::thread::index_1d())) *o = 0.f;
}
// CHECK: launch-contract-covers.cpp:[[@LINE-4]]:1: error: launch contract of 'kernels::sixteen': 'index_bits' is 32 or 64, got 16; write index_bits = 32 for 32-bit index arithmetic (the launch checks that the views fit) [carbide-launch-contract]

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1), covers = in, index_bits = 32)
void good(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = in[idx.get()];
}

}  // namespace kernels
