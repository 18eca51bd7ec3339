// The same reduction as a CUDA programmer writes it by hand: the benchmark's twin.
#include <cuda_runtime.h>

namespace reference {

__device__ __forceinline__ float warp_sum(float v) {
  for (int mask = 16; mask > 0; mask >>= 1) v += __shfl_xor_sync(0xffffffffu, v, mask);
  return v;
}

__global__ void __launch_bounds__(512) sum(const float* __restrict__ in, size_t n, float* total) {
  __shared__ float warp_sums[16];
  float partial = 0.f;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    partial += in[i];
  partial = warp_sum(partial);
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = partial;
  __syncthreads();
  if (warp == 0) {
    float block_sum = warp_sum(lane < 16 ? warp_sums[lane] : 0.f);
    if (lane == 0) atomicAdd(total, block_sum);
  }
}

void launch_sum(const float* in, size_t n, float* total, unsigned blocks) {
  sum<<<blocks, 512>>>(in, n, total);
}

}  // namespace reference
