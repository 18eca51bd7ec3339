// Device code is copied as written, so the macros it names are defined again in the .cu: those
// of the user's headers and of the build's -D, transitively, in definition order; system and
// Carbide macros are not (the .cu includes their headers). check and translate agree.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %carbide check %s -- -I%S/Inputs -DEXTRA_SCALE=2.0f
// RUN: %carbide translate %s -o %t --cuda-arch sm_90 -- -I%S/Inputs -DEXTRA_SCALE=2.0f
// RUN: FileCheck %s < %t/user-macros.carbide.cu
// CHECK: #include <carbide/device.hpp>
// CHECK-NEXT: #include <cmath>
// CHECK-NEXT: #define EXTRA_SCALE 2.0f
// CHECK-NEXT: #line 4 "{{.*}}Inputs/user_macros.hpp"
// CHECK-NEXT: #define BASE_SCALE 3.0f
// CHECK-NEXT: #line 5 "{{.*}}Inputs/user_macros.hpp"
// CHECK-NEXT: #define SCALED(x) ((x) * BASE_SCALE)
// CHECK-NEXT: #line [[#@LINE+6]] "{{.*}}user-macros.cpp"
// CHECK-NOT: #define INFINITY
// CHECK-NOT: #define UNUSED_MACRO
#include <carbide/carbide.hpp>
#include <cmath>
#include "user_macros.hpp"
#define LOCAL_OFFSET 1.0f
namespace kernels {
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void scale(carbide::span<const float> a, carbide::disjoint_span<float> c) {
  auto idx = carbide::thread::index_1d();
  if (float* e = c.get_mut(idx)) *e = SCALED(a[idx.get()]) * EXTRA_SCALE + LOCAL_OFFSET + (INFINITY > 0);
}
}  // namespace kernels
