// Views of the user's own records: the API header forward-declares the record, the host stubs
// define it as the file does (they size the buffers), and the user's program and the stubs
// compile and link together without a warning.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck --check-prefix=HPP %s < %t/record-views.carbide.hpp
// RUN: FileCheck --check-prefix=STUBS %s < %t/record-views.carbide.cpp
// RUN: %ptxas -arch=sm_90 %t/record-views.ptx -o /dev/null
// RUN: %cxx_user -I%t -include %t/record-views.carbide.hpp -c %s -o %t/app.o
// RUN: %cxx_user -I%t -c %t/record-views.carbide.cpp -o %t/stubs.o
// RUN: %cxx_user %t/app.o %t/stubs.o %runtime_lib -ldl -o %t/app
// HPP: namespace physics { struct Particle; }
// HPP: const carbide::DeviceBuffer<physics::Particle>& in,
// HPP: carbide::DeviceBuffer<physics::Particle>& out
// STUBS: #include <cstdint>
// STUBS: namespace physics {
// STUBS-NEXT: #line [[@LINE+17]] "{{.*}}record-views.cpp"
// STUBS-NEXT: constexpr int kDims = 3;
// STUBS: struct Particle {
// The records the launch needs come first; the kernel itself only in the CPU form after them.
// STUBS-NOT: advance
// STUBS: The kernels' CPU form
// STUBS: namespace carbide_cpu {
// STUBS: struct Particle {
// STUBS: Particle advance(
// STUBS: ::carbide::cpu::KernelEntry entry_step
#include <carbide/carbide.hpp>

#include <cstdint>
#include <vector>

namespace physics {

constexpr int kDims = 3;

struct Particle {
  float position[kDims];
  float velocity[kDims];
  std::uint32_t id;
};

Particle advance(Particle p, float dt) {
  for (int d = 0; d < kDims; ++d) p.position[d] += p.velocity[d] * dt;
  return p;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void step(carbide::span<const Particle> in, float dt, carbide::disjoint_span<Particle> out) {
  auto idx = carbide::thread::index_1d();
  if (Particle* p = out.get_mut(idx)) *p = advance(in[idx.get()], dt);
}

}  // namespace physics

int main() {
  auto ctx = carbide::Context::create(0);
  auto stream = ctx.default_stream();
  const std::vector<physics::Particle> host(1000, physics::Particle{{0.f, 0.f, 0.f}, {1.f, 2.f, 3.f}, 7u});
  auto in = carbide::DeviceBuffer<physics::Particle>::from_host(stream, host);
  auto out = carbide::DeviceBuffer<physics::Particle>::zeroed(stream, host.size());
  auto module = physics::load(ctx);
  module.step(stream, module.prepare_step(carbide::LaunchConfig1D(4, 256)), in, 0.5f, out);
  return out.to_host_vec(stream)[999].position[2] == 1.5f ? 0 : 1;
}
