// A thread's own C array indexed where the translator cannot prove the index inside it: the
// generated code checks the index (carbide::detail::checked), on the GPU in a checked build and on
// the CPU always, as a view's index is checked; a C array has no check of its own, and past its
// end lie the thread's other locals. Indexes it proves (a constant, a counter below the extent)
// keep their plain form. A carbide::vec's operator[] checks its index the same way.
// RUN: rm -rf %t && %carbide check %s
// RUN: %carbide_translate %s -o %t
// RUN: FileCheck --check-prefix=DEVICE %s < %t/array-index.carbide.cu
// DEVICE: for (int k = 0; k < 4; ++k) taps[k] = float(k);
// DEVICE: ::carbide::detail::checked(taps, "the array 'taps'")[which] = 1.f;
// DEVICE: ::carbide::detail::checked(grid, "the array 'grid'")[row][2] = ::carbide::detail::checked(taps, "the array 'taps'")[which];
// DEVICE: grid[1][2]
// RUN: %cxx_user -I%t -include %t/array-index.carbide.hpp -c %s -o %t/app.o
// RUN: %cxx_user -I%t -c %t/array-index.carbide.cpp -o %t/stubs.o
// RUN: %cxx_user %t/app.o %t/stubs.o %runtime_lib -ldl -o %t/app
// RUN: env CARBIDE_DEVICE=cpu %t/app 2>&1 | FileCheck %s
// CHECK: carbide: running kernels on the CPU
// CHECK-NEXT: which = 3: 0 wrong
// CHECK-NEXT: which = 4: kernel arrays::pick: the array 'taps': index 4 is past the thread's 4 elements, at {{.*}}array-index.cpp:36
// CHECK-NEXT: row = 3: kernel arrays::pick: the array 'grid': index 3 is past the thread's 3 elements, at {{.*}}array-index.cpp:37
// CHECK-NEXT: lane = 5: kernel arrays::vec_pick: carbide::vec::operator[]: index 5 is past the thread's 4 elements, at {{.*}}array-index.cpp:46
#include <carbide/carbide.hpp>

#include <cstdio>
#include <vector>

namespace arrays {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (64, 1, 1))
void pick(carbide::disjoint_span<float> out, int which, int row) {
  auto idx = carbide::thread::index_1d();
  float taps[4];
  for (int k = 0; k < 4; ++k) taps[k] = float(k);
  float grid[3][4] = {};
  taps[which] = 1.f;
  grid[row][2] = taps[which];
  if (float* e = out.get_mut(idx)) *e = taps[3] + grid[1][2];
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (64, 1, 1))
void vec_pick(carbide::disjoint_span<float> out, int lane) {
  auto idx = carbide::thread::index_1d();
  carbide::vec<float, 4> values{};
  if (float* e = out.get_mut(idx)) *e = values[lane];
}

}  // namespace arrays

int main() {
  auto ctx = carbide::Context::create_default();
  auto stream = ctx.default_stream();
  auto out = carbide::DeviceBuffer<float>::zeroed(stream, 64);
  auto module = arrays::load(ctx);
  const auto config = carbide::LaunchConfig1D(1, 64);
  const int cases[][2] = {{3, 1}, {4, 1}, {1, 3}};
  for (const auto& c : cases) {
    try {
      module.pick(stream, module.prepare_pick(config), out, c[0], c[1]);
      const auto got = out.to_host_vec(stream);
      int wrong = 0;
      for (float v : got) wrong += v != 2.f;  // taps[3] = 1, then grid[1][2] = taps[3]
      std::printf("which = %d: %d wrong\n", c[0], wrong);
    } catch (const carbide::KernelError& error) {
      std::printf("%s = %d: %s\n", c[0] == 4 ? "which" : "row", c[0] == 4 ? c[0] : c[1], error.what());
    }
  }
  try {
    module.vec_pick(stream, module.prepare_vec_pick(config), out, 5);
  } catch (const carbide::KernelError& error) {
    std::printf("lane = 5: %s\n", error.what());
  }
}
