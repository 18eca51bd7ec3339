// A kernel in an inline namespace: the generated API header reopens the namespace as inline, so
// the user's file (with that header force-included) compiles and the module is reachable by
// both names.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck %s < %t/inline-namespace.carbide.hpp
// RUN: %cxx_user -I%t -include %t/inline-namespace.carbide.hpp -fsyntax-only %s
// CHECK: namespace kernels {
// CHECK-NEXT: inline namespace v2 {
#include <carbide/carbide.hpp>

namespace kernels {
inline namespace v2 {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void fill(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 1.0f;
}

}  // namespace v2
}  // namespace kernels

// Host code names the module through the inline namespace or without it.
[[maybe_unused]] static auto* load_v2 = &kernels::v2::load;
[[maybe_unused]] static auto* load_plain = &kernels::load;
