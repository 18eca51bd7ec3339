// RUN: rm -rf %t && not %carbide_translate %s -o %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not ls %t
#include <carbide/carbide.hpp>
#include "no_such_header.hpp"
// CHECK: missing-include.cpp:[[@LINE-1]]:10: fatal error: 'no_such_header.hpp' file not found

namespace kernels {
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void k(carbide::disjoint_span<float> out) {}
}  // namespace kernels
