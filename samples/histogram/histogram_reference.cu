// The same histogram as a CUDA programmer writes it by hand: per-block bins in shared memory,
// shared atomics, one global atomic per bin. The benchmark's twin.
#include <cuda_runtime.h>

#include <cstdint>

namespace reference {

__global__ void __launch_bounds__(256) histogram(const std::uint32_t* __restrict__ words, size_t n,
                                                 unsigned* __restrict__ bins) {
  __shared__ unsigned counts[256];
  counts[threadIdx.x] = 0;
  __syncthreads();
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const std::uint32_t packed = __ldg(words + i);
#pragma unroll
    for (unsigned byte = 0; byte < 4; ++byte) atomicAdd(&counts[(packed >> (8 * byte)) & 0xffu], 1u);
  }
  __syncthreads();
  if (const unsigned mine = counts[threadIdx.x]) atomicAdd(&bins[threadIdx.x], mine);
}

void launch_histogram(const std::uint32_t* words, size_t n, unsigned* bins, unsigned blocks) {
  histogram<<<blocks, 256>>>(words, n, bins);
}

}  // namespace reference
