// The same SGEMM as a CUDA programmer writes it by hand: 128 × 128 tiles of C per block of
// 16 × 16 threads, 8 × 8 per thread in registers, K in slabs of 8 staged in shared memory by
// float4 loads, the next slab's loads issued before the current one is multiplied, results
// stored as float4s. The benchmark's twin.
#include <cuda_runtime.h>

#include <cstdint>

namespace reference {

__global__ void __launch_bounds__(256, 2) sgemm(const float* __restrict__ a, const float* __restrict__ b,
                                                std::uint32_t k_size, std::uint32_t n_size,
                                                float* __restrict__ c) {
  __shared__ float4 a_slab[128 * 8 / 4];  // [m][k / 4]
  __shared__ float4 b_slab[8 * 128 / 4];  // [k][n / 4]
  const unsigned tx = threadIdx.x, ty = threadIdx.y, l = ty * 16 + tx;
  const float4* a4 = reinterpret_cast<const float4*>(a) + (size_t(blockIdx.y) * 128 + l / 2) * k_size / 4 + l % 2;
  const float4* b4 = reinterpret_cast<const float4*>(b) + size_t(l / 32) * n_size / 4 + size_t(blockIdx.x) * 32 + l % 32;
  const size_t b_step = 8 * size_t(n_size) / 4;
  float sum[8][8] = {};
  float4 a_next = __ldg(a4), b_next = __ldg(b4);
  const size_t slabs = k_size / 8;
  for (size_t slab = 0; slab < slabs; ++slab) {
    a_slab[l] = a_next;
    b_slab[l] = b_next;
    __syncthreads();
    if (slab + 1 < slabs) {
      a_next = __ldg(a4 + (slab + 1) * 2);
      b_next = __ldg(b4 + (slab + 1) * b_step);
    }
#pragma unroll
    for (unsigned k = 0; k < 8; ++k) {
      float a_column[8];
#pragma unroll
      for (int i = 0; i < 8; ++i) a_column[i] = reinterpret_cast<const float*>(a_slab)[(ty * 8 + i) * 8 + k];
      const float4 b_left = b_slab[k * 32 + tx * 2], b_right = b_slab[k * 32 + tx * 2 + 1];
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        sum[i][0] += a_column[i] * b_left.x;
        sum[i][1] += a_column[i] * b_left.y;
        sum[i][2] += a_column[i] * b_left.z;
        sum[i][3] += a_column[i] * b_left.w;
        sum[i][4] += a_column[i] * b_right.x;
        sum[i][5] += a_column[i] * b_right.y;
        sum[i][6] += a_column[i] * b_right.z;
        sum[i][7] += a_column[i] * b_right.w;
      }
    }
    __syncthreads();
  }
  const size_t row = (size_t(blockIdx.y) * 16 + ty) * 8, col = (size_t(blockIdx.x) * 16 + tx) * 8;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    float4* target = reinterpret_cast<float4*>(c + (row + i) * n_size + col);
    target[0] = make_float4(sum[i][0], sum[i][1], sum[i][2], sum[i][3]);
    target[1] = make_float4(sum[i][4], sum[i][5], sum[i][6], sum[i][7]);
  }
}

// M and N multiples of 128, K of 8.
void launch_sgemm(const float* a, const float* b, float* c, std::uint32_t m, std::uint32_t n, std::uint32_t k) {
  sgemm<<<dim3(n / 128, m / 128), dim3(16, 16)>>>(a, b, k, n, c);
}

}  // namespace reference
