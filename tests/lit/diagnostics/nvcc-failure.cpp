// What nvcc rejects comes back at the user's line through the generated #line directives,
// from its front end and from its preprocessor alike.
// RUN: rm -rf %t && not %carbide translate %s -o %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not ls %t
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void scale(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
#if defined(__CUDACC__)
#error "this kernel is not ready for the device"
#endif
// CHECK: nvcc-failure.cpp:[[@LINE-2]]:{{[0-9]+}}: error: nvcc: #error "this kernel is not ready for the device" [carbide-device-compile]
  if (float* o = out.get_mut(idx)) *o = 1.f;
}

}  // namespace kernels
