// A kernel parameter whose type is an alias the file declares: the launch API, which comes
// before the user's code, spells what the alias stands for, and the user's own call compiles
// against it.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck %s < %t/alias-parameter.carbide.hpp
// RUN: %cxx_user -I%t -include %t/alias-parameter.carbide.hpp -c %s -o %t/app.o
// CHECK: void taps(const carbide::Stream& stream, const carbide::Prepared<
// CHECK-NEXT: carbide::vec<float, 4> weights,
#include <carbide/carbide.hpp>

namespace filters {

using Taps = carbide::vec<float, 4>;

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 64)
void taps(Taps weights, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = weights[0] + weights[3];
}

}  // namespace filters

void launch(const filters::Module& module, const carbide::Stream& stream, carbide::DeviceBuffer<float>& out) {
  const filters::Taps weights{1.f, 2.f, 3.f, 4.f};
  module.taps(stream, module.prepare_taps(carbide::LaunchConfig1D(1, 64)), weights, out);
}
