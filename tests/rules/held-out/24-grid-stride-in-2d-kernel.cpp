// VIOLATION: `thread::grid_stride(view)` in a domain = 2 kernel: its index_1d witnesses use only x, so every row of a block gets the same witnesses
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
namespace kernels {
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void k(carbide::disjoint_span<float> out) {
  for (auto&& w : carbide::thread::grid_stride(out))
    if (float* o = out.get_mut(w)) *o = float(carbide::thread::thread_idx().y);
}
}
// CHECK: 24-grid-stride-in-2d-kernel.cpp:7:1: error: launch contract of 'kernels::k': domain = 2 but the kernel uses grid_stride(); write domain = 1 or use the matching witness [carbide-launch-contract]
