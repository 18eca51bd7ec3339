// Clang's own errors come out as clang prints them, and nothing is written.
// RUN: rm -rf %t && not %carbide_translate %s -o %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not ls %t
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void broken(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d()
  if (float* o = out.get_mut(idx)) *o = 1.f;
}
// CHECK: syntax-error.cpp:[[@LINE-3]]:41: error: expected ';' at end of declaration

}  // namespace kernels
