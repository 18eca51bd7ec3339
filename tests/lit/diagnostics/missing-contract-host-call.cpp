// A host call of prepare_k or k for a kernel without CARBIDE_LAUNCH_CONTRACT: the module has
// neither (only unsafe_launch_k), and the error at the call says so and what to write, once for
// `m.k(stream, m.prepare_k(config), …)`, instead of Clang's bare "no member named".
// RUN: not %carbide check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
// CHECK: missing-contract-host-call.cpp:[[@LINE+18]]:31: error: call to deleted member function 'prepare_scale': kernel 'kernels::scale' has no CARBIDE_LAUNCH_CONTRACT: add one above the kernel, or launch it unchecked with unsafe_launch_scale(stream, config, ...)
// CHECK: missing-contract-host-call.cpp:[[@LINE+18]]:10: error: call to deleted member function 'scale': kernel 'kernels::scale' has no CARBIDE_LAUNCH_CONTRACT
#include <carbide/carbide.hpp>

namespace kernels {
CARBIDE_KERNEL
void scale(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = in[idx.get()] * 2;
}
}  // namespace kernels

int main() {
  auto context = carbide::Context::create_default();
  auto stream = context.default_stream();
  auto in = carbide::DeviceBuffer<float>::zeroed(stream, 256);
  auto out = carbide::DeviceBuffer<float>::zeroed(stream, 256);
  auto module = kernels::load(context);
  module.scale(stream, module.prepare_scale(carbide::LaunchConfig1D(1, 256)), in, out);
  module.scale(stream, carbide::LaunchConfig1D(1, 256), in, out);
}
