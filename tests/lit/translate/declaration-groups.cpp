// A namespace-scope declaration of several constants is emitted once, whole, and nvcc accepts it.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck %s < %t/declaration-groups.carbide.cu
// RUN: %ptxas -arch=sm_90 %t/declaration-groups.ptx -o /dev/null
// CHECK: constexpr unsigned kRows = 4, kCols = 8, kUnused = 2;
constexpr int kFirst = 1, kSecond = 2;
// CHECK-NOT: kRows = 4
// Only the group's second name reaches the device; the group is still emitted whole.
// CHECK: constexpr int kFirst = 1, kSecond = 2;
#include <carbide/carbide.hpp>

namespace groups {

constexpr unsigned kRows = 4, kCols = 8, kUnused = 2;
constexpr int kFirst = 1, kSecond = 2;

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (32, 1, 1))
void fill(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* element = out.get_mut(idx)) *element = float(kRows + kCols + kSecond);
}

}  // namespace groups
