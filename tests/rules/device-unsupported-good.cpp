// The good case: math from <cmath>, std::min, constexpr helpers, templates and lambdas, and a
// final class's method are all fine on the device.
// RUN: %carbide check %s 2>&1 | count 0
#include <carbide/carbide.hpp>
#include <algorithm>
#include <cmath>

namespace kernels {

struct Scaler final {
  float factor;
  float apply(float x) const { return x * factor; }
};

template <int Steps>
float smooth(float x) {
  for (int i = 0; i < Steps; ++i) x = 0.5f * (x + std::sqrt(std::fabs(x)));
  return x;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void good(carbide::span<const float> in, carbide::disjoint_span<float> out, Scaler scaler) {
  auto idx = carbide::thread::index_1d();
  auto clampf = [](float v) { return std::min(std::max(v, -1.f), 1.f); };
  if (float* o = out.get_mut(idx)) *o = clampf(scaler.apply(smooth<3>(in[idx.get()])));
}

}  // namespace kernels
