// Device code may live in the user's own headers: a kernel argument's struct, a constant and a
// helper from one are copied into the device code with #line pointing at the header, the
// standard headers it includes come along, and its host code stays out.
// RUN: rm -rf %t && %carbide_translate %s -o %t -- -I%S/Inputs
// RUN: FileCheck %s < %t/user-headers.carbide.cu
// RUN: FileCheck --check-prefix=HPP %s < %t/user-headers.carbide.hpp
// RUN: %ptxas -arch=sm_90 %t/user-headers.ptx -o /dev/null
// CHECK: #include <cmath>
// CHECK: namespace stencil {
// CHECK: #line 8 "{{.*}}stencil_weights.hpp"
// CHECK-NEXT: constexpr int kTaps = 9;
// CHECK: #line 10 "{{.*}}stencil_weights.hpp"
// CHECK-NEXT: struct Weights {
// CHECK: #line 15 "{{.*}}stencil_weights.hpp"
// CHECK-NEXT: __device__ inline float weighted(
// CHECK-NOT: host_only_taps
// CHECK: #line [[@LINE+10]] "{{.*}}user-headers.cpp"
// HPP: struct Weights;
#include <carbide/carbide.hpp>

#include "stencil_weights.hpp"

namespace stencil {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void apply(carbide::span<const float> in, Weights weights, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* element = out.get_mut(idx)) *element = weighted(weights, 0, in[idx.get()]);
}

}  // namespace stencil

int main() { return int(stencil::host_only_taps().size()) - stencil::kTaps; }
