// The same reduce-then-scan as a CUDA programmer writes it by hand: 256 threads × 8 floats per
// block in float4 loads and stores, warp shuffles, one shared slot per warp. The benchmark's twin.
#include <cuda_runtime.h>

namespace reference {
namespace {

constexpr unsigned kPerBlock = 256 * 8;

__device__ float warp_inclusive_scan(float value) {
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (unsigned delta = 1; delta < 32; delta <<= 1) {
    const float below = __shfl_up_sync(0xffffffffu, value, delta);
    if (lane >= delta) value += below;
  }
  return value;
}

// Eight floats from element 8·chunk on; zeros past n.
__device__ void load8(const float* in, size_t n, size_t chunk, float (&x)[8]) {
  const size_t first = 8 * chunk;
  if (first + 8 <= n) {
    const float4 a = __ldg(reinterpret_cast<const float4*>(in) + 2 * chunk);
    const float4 b = __ldg(reinterpret_cast<const float4*>(in) + 2 * chunk + 1);
    x[0] = a.x, x[1] = a.y, x[2] = a.z, x[3] = a.w, x[4] = b.x, x[5] = b.y, x[6] = b.z, x[7] = b.w;
  } else {
#pragma unroll
    for (int j = 0; j < 8; ++j) x[j] = first + j < n ? in[first + j] : 0.f;
  }
}

__global__ void __launch_bounds__(256) block_totals(const float* __restrict__ in, size_t n,
                                                    float* __restrict__ totals) {
  __shared__ float warp_sums[8];
  float x[8];
  load8(in, n, size_t(blockIdx.x) * 256 + threadIdx.x, x);
  float sum = 0.f;
#pragma unroll
  for (int j = 0; j < 8; ++j) sum += x[j];
#pragma unroll
  for (unsigned mask = 16; mask > 0; mask >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, mask);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.f;
#pragma unroll
    for (unsigned w = 0; w < 8; ++w) total += warp_sums[w];
    totals[blockIdx.x] = total;
  }
}

__global__ void __launch_bounds__(256) scan_blocks(const float* __restrict__ in, size_t n,
                                                   const float* __restrict__ offsets,
                                                   float* __restrict__ out) {
  __shared__ float warp_sums[8];
  const size_t chunk = size_t(blockIdx.x) * 256 + threadIdx.x;
  float x[8];
  load8(in, n, chunk, x);
#pragma unroll
  for (int j = 1; j < 8; ++j) x[j] += x[j - 1];
  const float own_total = x[7];
  const float through_me = warp_inclusive_scan(own_total);
  if (threadIdx.x % 32 == 31) warp_sums[threadIdx.x / 32] = through_me;
  __syncthreads();
  float before = (blockIdx.x > 0 ? offsets[blockIdx.x - 1] : 0.f) + (through_me - own_total);
  for (unsigned w = 0; w < threadIdx.x / 32; ++w) before += warp_sums[w];
  const size_t first = 8 * chunk;
  if (first + 8 <= n) {
    float4* target = reinterpret_cast<float4*>(out) + 2 * chunk;
    target[0] = make_float4(x[0] + before, x[1] + before, x[2] + before, x[3] + before);
    target[1] = make_float4(x[4] + before, x[5] + before, x[6] + before, x[7] + before);
  } else {
#pragma unroll
    for (int j = 0; j < 8; ++j)
      if (first + j < n) out[first + j] = x[j] + before;
  }
}

}  // namespace

// `scratch` holds the block totals and their scans: at least 2 · (n / 2048 + n / 2048² + …) floats.
void launch_scan(const float* in, size_t n, float* out, float* scratch) {
  const unsigned blocks = unsigned((n + kPerBlock - 1) / kPerBlock);
  if (blocks == 1) {
    scan_blocks<<<1, 256>>>(in, n, in, out);
    return;
  }
  float* totals = scratch;
  float* offsets = scratch + blocks;
  block_totals<<<blocks, 256>>>(in, n, totals);
  launch_scan(totals, blocks, offsets, scratch + 2 * blocks);
  scan_blocks<<<blocks, 256>>>(in, n, offsets, out);
}

}  // namespace reference
