// A kernel parameter whose type names a constant as a template argument (`vec<float, kTaps>`):
// the API header and the entry are outside the user's namespace, so they spell the value, and
// the user's file (with that header force-included) compiles. The kernel body keeps the name.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck %s --check-prefix=API < %t/constant-template-arguments.carbide.hpp
// RUN: FileCheck %s --check-prefix=CU < %t/constant-template-arguments.carbide.cu
// RUN: %cxx_user -I%t -include %t/constant-template-arguments.carbide.hpp -fsyntax-only %s
// API: carbide::vec<float, 5> taps) const;
// CU: void taps_sum({{.*}}carbide::vec<float, kTaps> taps)
// CU: carbide_kernels_taps_sum({{.*}}carbide::vec<float, 5> taps)
#include <carbide/carbide.hpp>

namespace kernels {

constexpr int kTaps = 5;

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void taps_sum(carbide::span<const float> in, carbide::disjoint_span<float> out, carbide::vec<float, kTaps> taps) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) {
    float sum = 0.0f;
    for (int k = 0; k < kTaps; ++k) sum += taps[k] * in[idx.get()];
    *o = sum;
  }
}

}  // namespace kernels
