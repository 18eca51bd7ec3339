// What nvcc rejects comes back at the user's line through the generated #line directives,
// from its front end and from its preprocessor alike.
// RUN: rm -rf %t && not %carbide_translate %s -o %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not ls %t
// With carbide-device-compile turned off, the failure still says why nothing was written.
// RUN: not %carbide_translate %s -o %t --checks='*,-carbide-device-compile' 2> %t.quiet
// RUN: FileCheck --check-prefix=QUIET %s < %t.quiet
// QUIET: nvcc-failure.cpp: error: nvcc could not compile the device code, so nothing was written; --checks turns carbide-device-compile off, which would say where
// RUN: not ls %t
// Under --file-prefix-map nvcc names the mapped path; the finding is still at the user's file.
// RUN: not %carbide_translate %s -o %t --file-prefix-map %S=mapped 2> %t.mapped
// RUN: FileCheck %s < %t.mapped
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
