// A CUDA driver installed on a machine without a GPU, as far as the runtime can tell: cuInit
// answers CUDA_ERROR_NO_DEVICE, as the real libcuda.so.1 does there.
#include <cuda.h>

extern "C" CUresult CUDAAPI cuInit(unsigned int) { return CUDA_ERROR_NO_DEVICE; }
