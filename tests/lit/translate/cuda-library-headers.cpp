// A file that calls CUDA libraries on the host beside its kernels (samples/cublas_chain)
// translates without -I: the translator searches the headers of the toolkit whose nvcc it uses,
// last, as system headers, and copies nothing of them into the device code.
// RUN: rm -rf %t && %carbide translate %s -o %t --cuda-arch sm_90
// RUN: FileCheck --check-prefix=CU %s < %t/cuda-library-headers.carbide.cu
// RUN: not grep -n cublas %t/cuda-library-headers.carbide.cu
// RUN: FileCheck --check-prefix=DEPS %s < %t/cuda-library-headers.carbide.d
// RUN: %carbide check %s
// An nvcc that is a wrapper script outside its toolkit (/usr/local/bin/nvcc on some machines)
// names its toolkit when asked; that toolkit's headers are the ones searched.
// RUN: %python %S/Inputs/nvcc_wrapper.py %t/wrapper
// RUN: env -u CUDA_HOME PATH=%t/wrapper:/usr/bin:/bin %carbide check %s
// A directory of the user's own still comes first: their cublas_v2.h is the one read.
// RUN: mkdir -p %t/own && echo '#error the user-s own cublas_v2.h' > %t/own/cublas_v2.h
// RUN: not %carbide check %s -- -I%t/own 2>&1 | FileCheck --check-prefix=OWN %s
// OWN: own/cublas_v2.h:1:2: error: the user-s own cublas_v2.h
#include <carbide/carbide.hpp>

#include <cublas_v2.h>
#include <cuda_runtime.h>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void scale(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 2.f * in[idx.get()];
}
// CU: carbide_kernels_scale
// DEPS: cublas_v2.h

}  // namespace kernels

int main() {
  cublasHandle_t handle = nullptr;
  return cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS && cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
