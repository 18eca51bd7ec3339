// The good case: math from <cmath>, std::min, constexpr helpers, templates and lambdas, and a
// final class's method are all fine on the device.
// RUN: %corpus_check %s 2>&1 | count 0
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

// The dialect's conditional constructs where no barrier is at stake: switch, goto, continue and
// break, ?: and && in barrier-free code; a constructor and a destructor that touch no shared
// memory; a cast of a witness to void; a reference to a const pointer.
struct Accumulator {
  float sum = 0.f;
  Accumulator() = default;
  ~Accumulator() { sum = 0.f; }
};

float pick(int mode, float x) {
  switch (mode) {
    case 0: return x;
    case 1: return -x;
    default: break;
  }
  return 0.f;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void structured(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  (void)idx;
  Accumulator total;
  for (int i = 0; i < 8; ++i) {
    if (in[i] < 0.f) continue;
    if (in[i] > 100.f) break;
    total.sum += in[i];
  }
  if (in[0] == 0.f) goto skip;
  total.sum += pick(int(in[1]) % 3, in[2]);
skip:
  const float* first = &in[0];
  const float* const& alias = first;
  (void)alias;
  const float bonus = in[3] > 0.f && in[4] > 0.f ? 1.f : 0.f;
  if (float* o = out.get_mut(idx)) *o = total.sum + bonus;
}


namespace deep {

// Nine levels of helpers below a kernel are followed.
float level9(float x) { return x; }
float level8(float x) { return level9(x) + 1.f; }
float level7(float x) { return level8(x) + 1.f; }
float level6(float x) { return level7(x) + 1.f; }
float level5(float x) { return level6(x) + 1.f; }
float level4(float x) { return level5(x) + 1.f; }
float level3(float x) { return level4(x) + 1.f; }
float level2(float x) { return level3(x) + 1.f; }
float level1(float x) { return level2(x) + 1.f; }

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 64)
void nine_levels(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = level1(1.f);
}

}  // namespace deep

}  // namespace kernels
