// carbide's first pass reads kernels' signatures without the host half of its headers
// (CARBIDE_SIGNATURES_ONLY). A signature that needs that half (here std::numeric_limits, which
// only the runtime's headers bring in) is misread there; the whole parse declares the API again
// as the kernel really is, and the host's launch compiles against it.
// RUN: %carbide check %s 2>&1 | FileCheck %s --allow-empty --check-prefix=CHECK-CLEAN
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck %s < %t/signature-from-host-headers.carbide.hpp
// CHECK-CLEAN-NOT: error
// CHECK: void taps(const carbide::Stream& stream, const carbide::Prepared<
// CHECK-NEXT: carbide::vec<float, 8> weights,
#include <carbide/carbide.hpp>

namespace filters {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 64)
void taps(carbide::vec<float, std::numeric_limits<unsigned char>::digits> weights,
          carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = weights[0] + weights[7];
}

}  // namespace filters

void launch(const filters::Module& module, const carbide::Stream& stream, carbide::DeviceBuffer<float>& out) {
  const carbide::vec<float, 8> weights{1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f};
  module.taps(stream, module.prepare_taps(carbide::LaunchConfig1D(1, 64)), weights, out);
}
