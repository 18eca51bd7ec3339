// The device code holds exactly what the kernels reach: helpers (templates and lambdas too),
// the types and constants they use, and nothing of the host code.
// RUN: rm -rf %t && %carbide_translate %s -o %t
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

void print_report(float v) { std::printf("%f\n", v); }

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kBlock)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void step(carbide::span<const float> v, carbide::disjoint_span<float> out, Params p,
          std::uint32_t n) {
  auto idx = carbide::thread::index_1d();
  if (idx.get() >= n) return;
  if (float* o = out.get_mut(idx)) *o = clamp_to(std::sqrt(square(speed_after(p, v[idx.get()]))), 100.f);
}

}  // namespace physics

int main() { physics::print_report(1.f); }

// CHECK: #include <carbide/device.hpp>
// CHECK-NEXT: #include <cmath>
// CHECK-NOT: #include <cstdio>
// CHECK: namespace physics {
// CHECK-NEXT: #line 13 "{{.*}}device-reachability.cpp"
// CHECK-NEXT: constexpr int kBlock = 128;
// CHECK-NEXT: #line 14 {{.*}}
// CHECK-NEXT: constexpr float kGravity = 9.81f;
// CHECK-NEXT: #line 16 {{.*}}
// CHECK-NEXT: struct Params {
// CHECK: #line 21 {{.*}}
// CHECK-NEXT: __host__ __device__ constexpr float square(float x)
// CHECK: #line 23 {{.*}}
// CHECK-NEXT: template <class T>
// CHECK-NEXT: __device__ T clamp_to(T value, T limit) {
// CHECK: #line 28 {{.*}}
// CHECK-NEXT: __device__ float speed_after(const Params& p, float v) {
// CHECK-NEXT: auto damp = [&](float x) { return x * (1.f - p.drag); };
// CHECK-NOT: print_report
// CHECK: __device__ __forceinline__ void step(
// CHECK-NOT: print_report
// CHECK: extern "C" __global__ void __launch_bounds__(128) carbide_physics_step(carbide::span<const float> v, carbide::disjoint_span<float> out, physics::Params p, {{(std::)?}}uint32_t n) {

// HPP: namespace physics { struct Params; }
// HPP: void step(const carbide::Stream& stream, const carbide::Prepared<step_kernel>& prepared,
// HPP-NEXT: const carbide::DeviceBuffer<float>& v,
// HPP-NEXT: carbide::DeviceBuffer<float>& out,
// HPP-NEXT: const physics::Params& p,
// HPP-NEXT: {{(std::)?}}uint32_t n) const;
