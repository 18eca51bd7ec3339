// CUDA's declaration specifiers in a file moved over from CUDA get one error each, at the user's
// line, naming the Carbide form (docs/migrating-from-cuda.md), instead of Clang's "unknown type
// name"; the declaration then parses as plain C++, so nothing follows from it.
// RUN: not %carbide check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

__global__ void __launch_bounds__(256, 2) scale(float* out, float factor) {
// CHECK: cuda-specifiers.cpp:[[@LINE-1]]:1: error: in a Carbide file, a kernel is CARBIDE_KERNEL CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1)) void k(...), in a named namespace, with its outputs as views
// CHECK: cuda-specifiers.cpp:[[@LINE-2]]:17: error: in a Carbide file, write CARBIDE_LAUNCH_BOUNDS(threads, blocks) before the kernel
  __shared__ float tile[256];
  // CHECK: cuda-specifiers.cpp:[[@LINE-1]]:3: error: in a Carbide kernel, shared memory is auto tile = carbide::block::shared<float, 256>(); and extern __shared__ is carbide::block::dynamic_shared<float>() with dynamic_shared = BYTES in the contract
  extern __shared__ float rest[];
  // CHECK: cuda-specifiers.cpp:[[@LINE-1]]:10: error: in a Carbide kernel, shared memory is
  tile[0] = rest[0] * factor;
  *out = tile[0];
}

__constant__ float taps[17];
// CHECK: cuda-specifiers.cpp:[[@LINE-1]]:1: error: in a Carbide file, a constant table is CARBIDE_CONSTANT float taps[17]; in the kernels' namespace, set from host code with module.set_taps(stream, values)

}  // namespace kernels
