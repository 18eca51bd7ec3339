// A raw access inside CARBIDE_UNSAFE is the user's promise, and a CPU run holds it: an off-by-one
// read past a view's end reaches memory the launch was not given, and the launch fails at that
// line, naming the thread; raw accesses to the thread's own locals are fine. With the checks
// off, nothing is looked at.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: %cxx_user -I%t -include %t/raw-access-outside.carbide.hpp -c %s -o %t/app.o
// RUN: %cxx_user -I%t -c %t/raw-access-outside.carbide.cpp -o %t/stubs.o
// RUN: %cxx_user %t/app.o %t/stubs.o %runtime_lib -ldl -o %t/app
// RUN: env CARBIDE_DEVICE=cpu %t/app 2>&1 | FileCheck %s
// RUN: env CARBIDE_DEVICE=cpu CARBIDE_CPU_CHECKS=off %t/app 2>&1 | FileCheck --check-prefix=OFF %s
#include <carbide/carbide.hpp>

#include <cstdio>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 64)
void pairs(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  float sum = 0.f;
  CARBIDE_UNSAFE("wrong on purpose: the last thread reads one past the end") {
    const float* raw = in.data();
    float* mine = &sum;
    *mine = raw[idx.get()] + raw[idx.get() + 1];
  }
  if (float* o = out.get_mut(idx)) *o = sum;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 64)
void locals(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  float pair[2] = {in[idx.get()], 1.f};
  float total = 0.f;
  CARBIDE_UNSAFE("a pointer into the thread's own array") {
    const float* p = pair;
    total = p[0] + p[1];
  }
  if (float* o = out.get_mut(idx)) *o = total;
}

}  // namespace kernels

int main() {
  auto context = carbide::Context::create_default();
  auto stream = context.default_stream();
  auto in = carbide::DeviceBuffer<float>::zeroed(stream, 256);
  auto out = carbide::DeviceBuffer<float>::zeroed(stream, 256);
  auto module = kernels::load(context);
  try {
    module.pairs(stream, module.prepare_pairs(carbide::LaunchConfig1D(4, 64)), in, out);
    stream.synchronize();
    std::printf("pairs ran\n");
  } catch (const carbide::KernelError& error) {
    std::printf("%s\n", error.what());
  }
  module.locals(stream, module.prepare_locals(carbide::LaunchConfig1D(4, 64)), in, out);
  stream.synchronize();
  std::printf("locals ran\n");
}
// CHECK: kernel kernels::pairs: a raw read of 4 bytes at address {{0x[0-9a-f]+}} lies outside every buffer of the launch, the block's shared memory and the thread's own locals, at {{.*}}raw-access-outside.cpp:25 in block (3,0,0) thread (63,0,0)
// CHECK-NEXT: locals ran
// OFF: pairs ran
// OFF-NEXT: locals ran
