// Flags reach Clang from a build's compile_commands.json (-p) and after `--`.
// RUN: not %carbide check %s -- -DSHAPE_3D 2>&1 | FileCheck --check-prefix=SHAPE %s
// RUN: %carbide check %s 2>&1 | count 0
// RUN: %carbide check %samples/vecadd/vecadd.cpp -p %build 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
#if defined(SHAPE_3D)
CARBIDE_LAUNCH_CONTRACT(domain = 3, block = (8, 8, 4))
#else
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
#endif
void fill(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 1.f;
}
// SHAPE: compile-flags.cpp:11:1: error: launch contract of 'kernels::fill': domain = 3 but the kernel uses index_1d()

}  // namespace kernels
