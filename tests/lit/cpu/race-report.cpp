// What a NOLINT lets through the static checks, a CPU run checks: a thread that writes its
// neighbour's element races with the neighbour, and the launch fails naming the kernel, both
// lines, both threads and the element. The context stays usable: the next launch runs.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: %cxx_user -I%t -include %t/race-report.carbide.hpp -c %s -o %t/app.o
// RUN: %cxx_user -I%t -c %t/race-report.carbide.cpp -o %t/stubs.o
// RUN: %cxx_user %t/app.o %t/stubs.o %runtime_lib -ldl -o %t/app
// RUN: env CARBIDE_DEVICE=cpu %t/app > %t/out 2>&1
// RUN: FileCheck %s < %t/out
// And with the checks off, the race goes unseen (the run only pays for what it checks).
// RUN: env CARBIDE_DEVICE=cpu CARBIDE_CPU_CHECKS=off %t/app | FileCheck --check-prefix=OFF %s
#include <carbide/carbide.hpp>

#include <cstdio>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 64)
void smear(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (idx.get() + 1 >= out.size()) return;
  if (float* mine = out.get_mut(idx)) {
    *mine = 1.f;
    mine[1] = 2.f;  // NOLINT(carbide-disjoint-foreign-write): wrong on purpose, the next thread's
  }
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 64)
void fill(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* mine = out.get_mut(idx)) *mine = 3.f;
}

}  // namespace kernels

int main() {
  auto context = carbide::Context::create_default();
  auto stream = context.default_stream();
  auto out = carbide::DeviceBuffer<float>::zeroed(stream, 256);
  auto module = kernels::load(context);
  try {
    module.smear(stream, module.prepare_smear(carbide::LaunchConfig1D(4, 64)), out);
    std::printf("smear ran\n");
  } catch (const carbide::KernelError& error) {
    std::printf("%s\n", error.what());
    std::printf("location: %s\n", error.location().c_str());
    for (const auto& access : error.accesses())
      std::printf("access at line %u by thread %u of block %u\n", access.line, access.thread[0], access.block[0]);
  }
  module.fill(stream, module.prepare_fill(carbide::LaunchConfig1D(4, 64)), out);
  std::printf("fill: out[255] = %g\n", out.to_host_vec(stream)[255]);
}

// CHECK: carbide: running kernels on the CPU (CARBIDE_DEVICE=cpu)
// CHECK-NEXT: kernel kernels::smear: data race on out[[[N:[0-9]+]]]
// CHECK-SAME: race-report.cpp:24
// CHECK-SAME: race-report.cpp:25
// CHECK-NEXT: location: out[[[N]]]
// CHECK-NEXT: access at line {{24|25}}
// CHECK-NEXT: access at line {{24|25}}
// CHECK-NEXT: fill: out[255] = 3

// OFF: smear ran
// OFF-NEXT: fill: out[255] = 3
