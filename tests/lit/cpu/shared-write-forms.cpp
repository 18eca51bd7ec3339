// A write to shared memory through an lvalue ?:, a cast, a comma or a pointer to member is a
// write on the CPU run as it is to check: each kernel below has every thread write slot 0 of
// one array, through one of those forms, and the launch fails with a race on it.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: %cxx_user -I%t -include %t/shared-write-forms.carbide.hpp -c %s -o %t/app.o
// RUN: %cxx_user -I%t -c %t/shared-write-forms.carbide.cpp -o %t/stubs.o
// RUN: %cxx_user %t/app.o %t/stubs.o %runtime_lib -ldl -o %t/app
// RUN: env CARBIDE_DEVICE=cpu %t/app 2>&1 | FileCheck %s
// CHECK: carbide: running kernels on the CPU
#include <carbide/carbide.hpp>

#include <cstdio>

namespace kernels {

struct Pair {
  float first, second;
};

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 64)
void through_choice(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto tile = carbide::block::shared<float, 64>();
  const unsigned t = carbide::thread::thread_idx().x;
  (t < 1000 ? tile[0] : tile[1]) = float(t);  // NOLINT(carbide-shared-race): wrong on purpose
  // CHECK: choice: kernel kernels::through_choice: data race on tile[0]: {{.*}}shared-write-forms.cpp:[[@LINE-1]], and {{.*}}shared-write-forms.cpp:[[@LINE-1]]
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tile[1];
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 64)
void through_cast(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto tile = carbide::block::shared<float, 64>();
  const unsigned t = carbide::thread::thread_idx().x;
  static_cast<float&>(tile[0]) = float(t);  // NOLINT(carbide-shared-race): wrong on purpose
  // CHECK: cast: kernel kernels::through_cast: data race on tile[0]: {{.*}}shared-write-forms.cpp:[[@LINE-1]], and {{.*}}shared-write-forms.cpp:[[@LINE-1]]
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tile[1];
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 64)
void through_comma(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto tile = carbide::block::shared<float, 64>();
  const unsigned t = carbide::thread::thread_idx().x;
  (void(), tile[0]) = float(t);  // NOLINT(carbide-shared-race): wrong on purpose
  // CHECK: comma: kernel kernels::through_comma: data race on tile[0]: {{.*}}shared-write-forms.cpp:[[@LINE-1]], and {{.*}}shared-write-forms.cpp:[[@LINE-1]]
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tile[1];
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 64)
void through_member_pointer(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto pairs = carbide::block::shared<Pair, 64>();
  const unsigned t = carbide::thread::thread_idx().x;
  float Pair::*field = &Pair::second;
  pairs[0].*field = float(t);  // NOLINT(carbide-shared-race): wrong on purpose
  // CHECK: member pointer: kernel kernels::through_member_pointer: data race on pairs[0]: {{.*}}shared-write-forms.cpp:[[@LINE-1]], and {{.*}}shared-write-forms.cpp:[[@LINE-1]]
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = pairs[1].first;
}

}  // namespace kernels

template <typename Launch>
void run(const char* name, Launch launch) {
  try {
    launch();
    std::printf("%s ran\n", name);
  } catch (const carbide::KernelError& error) {
    std::printf("%s: %s\n", name, error.what());
  }
}

int main() {
  auto context = carbide::Context::create_default();
  auto stream = context.default_stream();
  auto out = carbide::DeviceBuffer<float>::zeroed(stream, 64);
  auto module = kernels::load(context);
  const carbide::LaunchConfig1D config(1, 64);
  run("choice", [&] { module.through_choice(stream, module.prepare_through_choice(config), out); });
  run("cast", [&] { module.through_cast(stream, module.prepare_through_cast(config), out); });
  run("comma", [&] { module.through_comma(stream, module.prepare_through_comma(config), out); });
  run("member pointer",
      [&] { module.through_member_pointer(stream, module.prepare_through_member_pointer(config), out); });
}

