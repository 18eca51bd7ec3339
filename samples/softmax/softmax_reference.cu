// The same row softmax as a CUDA programmer writes it by hand: one block of 512 threads per
// 4096-float row, each thread two float4s half a row apart (each warp instruction covers 512
// contiguous bytes), warp shuffles and one shared slot per warp for the maximum and the sum.
// The benchmark's twin.
#include <cuda_runtime.h>

namespace reference {

__global__ void __launch_bounds__(512, 4) softmax(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float warp_maxima[16], warp_sums[16];
  const size_t first = size_t(blockIdx.x) * 1024 + threadIdx.x;  // in float4s; the other is 512 on
  const float4* source = reinterpret_cast<const float4*>(in);
  const float4 a = __ldg(source + first), b = __ldg(source + first + 512);
  float x[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
  float largest = x[0];
#pragma unroll
  for (int j = 1; j < 8; ++j) largest = fmaxf(largest, x[j]);
#pragma unroll
  for (unsigned mask = 16; mask > 0; mask >>= 1)
    largest = fmaxf(largest, __shfl_xor_sync(0xffffffffu, largest, mask));
  if (threadIdx.x % 32 == 0) warp_maxima[threadIdx.x / 32] = largest;
  __syncthreads();
#pragma unroll
  for (unsigned w = 0; w < 16; ++w) largest = fmaxf(largest, warp_maxima[w]);
  float sum = 0.f;
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    x[j] = expf(x[j] - largest);
    sum += x[j];
  }
#pragma unroll
  for (unsigned mask = 16; mask > 0; mask >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, mask);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  float total = 0.f;
#pragma unroll
  for (unsigned w = 0; w < 16; ++w) total += warp_sums[w];
  const float inverse = 1.f / total;
  float4* target = reinterpret_cast<float4*>(out);
  target[first] = make_float4(x[0] * inverse, x[1] * inverse, x[2] * inverse, x[3] * inverse);
  target[first + 512] = make_float4(x[4] * inverse, x[5] * inverse, x[6] * inverse, x[7] * inverse);
}

void launch_softmax(const float* in, float* out, unsigned rows) { softmax<<<rows, 512>>>(in, out); }

}  // namespace reference
