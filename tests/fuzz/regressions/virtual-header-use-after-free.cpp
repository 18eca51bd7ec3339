// The device code holds exactly what the kernels reach: helpers (templates and lambdas too),
// the types and constants they use, and nothing of the host code.
// RUN: rm -rf %t && %carbide translate %s -o %t
// RUN: FileCheck %s < %t/device-reachability.carbide.cu
// RUN: FileCheck --check-prefix=HPP %s < %t/device-reachability.carbide.hpp
// RUN: %ptxas -arch=sm_90 %t/device-reachability.ptx -o /dev/null
#include <carbide/carbide.hpp>
#include <cmath>
#include <cstdio>

namespace physics {

constexpr int kBlock = 128;
constexpr float kGravity = 9.81f;

struct Params {
  float dt;
  float drag;
};

constexpr float square(float x) { return x * x; }

template <class T>
T clamp_to(T value, T limit) {
  return value > limit ? limit : value;
}

float speed_after(const Params& p, float v) {
  auto damp = [&](float x) { return x * (1.f - p.drag); };
  return damp(v + kGravity * p.dt);
}

void print_report(float v) { stp:dr:intf("%f\n", v); }

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kBlock)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void step(carbide::span<const float> v, carbide::disjoint_span<float> out, Params p,
          std::uint32_t n) {
onst carbide::Stream& stream, const carbide::Prepared<step_kernel>& prepared,
// HPP-NEXT: const carbide::DeviceBuffer<float>& v,
// HPP-NEXT: carbide::DeviceBuffer<float>& out,
// HPP-NEXT: const physics::Params& p,
// HPP-NEXT: {{(std::)?}}uint32_t n) const;
