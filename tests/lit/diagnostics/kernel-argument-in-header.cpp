// A kernel argument whose struct comes from one of the user's headers: device code holds only
// what the translated file declares, so this is reported at the parameter, with what to write.
// RUN: not %carbide check %s -- -I%S/Inputs 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
// CHECK: kernel-argument-in-header.cpp:[[@LINE+9]]:43: error: parameter 'weights' of kernel 'stencil::apply' has a type declared in a header, and the device code Carbide generates holds only what this file declares; declare 'stencil::Weights' in this file [carbide-kernel-signature]
#include <carbide/carbide.hpp>

#include "stencil_weights.hpp"

namespace stencil {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void apply(carbide::span<const float> in, Weights weights, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* element = out.get_mut(idx)) *element = weights.tap[0] * in[idx.get()];
}

}  // namespace stencil
