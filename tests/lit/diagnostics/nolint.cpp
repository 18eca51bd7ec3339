// NOLINT and NOLINTNEXTLINE silence one rule at one line, as in clang-tidy.
// RUN: %carbide check %s 2> %t.err
// RUN: FileCheck %s < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
void silenced(carbide::disjoint_span<float> out) {}  // NOLINT(carbide-missing-contract)

CARBIDE_KERNEL
// NOLINTNEXTLINE(carbide-missing-contract)
void silenced_next(carbide::disjoint_span<float> out) {}

CARBIDE_KERNEL
void other_rule_named(carbide::disjoint_span<float> out) {}  // NOLINT(carbide-kernel-signature)
// CHECK: nolint.cpp:[[@LINE-1]]:6: warning: kernel 'kernels::other_rule_named' has no CARBIDE_LAUNCH_CONTRACT
// CHECK-NOT: silenced

}  // namespace kernels
