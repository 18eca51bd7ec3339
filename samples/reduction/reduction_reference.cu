// The same reduction as a CUDA programmer writes it by hand: the benchmark's twin.
#include <cuda_runtime.h>

namespace reference {

__device__ __forceinline__ float warp_sum(float v) {
  for (int mask = 16; mask > 0; mask >>= 1) v += __shfl_xor_sync(0xffffffffu, v, mask);
  return v;
}

__global__ void __launch_bounds__(512) sum(const float* __restrict__ in, size_t n, float* total) {
  __shared__ float warp_sums[16];
  // float4 chunks, the grid striding over them, two loads in flight per thread; the elements
  // of a last partial chunk one by one.
  const size_t chunks = n / 4, stride = size_t(gridDim.x) * blockDim.x;
  const float4* in4 = reinterpret_cast<const float4*>(in);
  float partial = 0.f, other = 0.f;
  size_t c = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; c + stride < chunks; c += 2 * stride) {
    const float4 first = __ldg(in4 + c), second = __ldg(in4 + c + stride);
    partial += (first.x + first.y) + (first.z + first.w);
    other += (second.x + second.y) + (second.z + second.w);
  }
  if (c < chunks) {
    const float4 last = __ldg(in4 + c);
    partial += (last.x + last.y) + (last.z + last.w);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0)  // the elements past the last whole chunk
    for (size_t i = chunks * 4; i < n; ++i) partial += __ldg(in + i);
  partial += other;
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
