// The same SGEMM as a CUDA programmer writes it by hand: 128 × 128 tiles of C per block of
// 16 × 16 threads, 8 × 8 per thread in registers, K in slabs of 8 staged in shared memory by
// float4 loads, results stored as float4s. The benchmark's twin.
#include <cuda_runtime.h>

#include <cstdint>

namespace reference {

__global__ void __launch_bounds__(256) sgemm(const float* __restrict__ a, const float* __restrict__ b,
                                             std::uint32_t k_size, std::uint32_t n_size,
                                             float* __restrict__ c) {
  __shared__ float4 a_slab[128 * 8 / 4];  // [m][k / 4]
  __shared__ float4 b_slab[8 * 128 / 4];  // [k][n / 4]
  const unsigned tx = threadIdx.x, ty = threadIdx.y, l = ty * 16 + tx;
  const size_t a_row = size_t(blockIdx.y) * 128 + l / 2;
  const size_t b_col4 = size_t(blockIdx.x) * 32 + l % 32;
  float sum[8][8] = {};
  for (size_t k0 = 0; k0 < k_size; k0 += 8) {
    a_slab[l] = __ldg(reinterpret_cast<const float4*>(a) + (a_row * k_size + k0) / 4 + l % 2);
    b_slab[l] = __ldg(reinterpret_cast<const float4*>(b) + (k0 + l / 32) * n_size / 4 + b_col4);
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < 8; ++k) {
      float a_column[8];
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        const float4 pair = a_slab[(ty * 8 + i) * 2 + k / 4];
        a_column[i] = k % 4 == 0 ? pair.x : k % 4 == 1 ? pair.y : k % 4 == 2 ? pair.z : pair.w;
      }
      const float4 b_left = b_slab[k * 32 + tx * 2], b_right = b_slab[k * 32 + tx * 2 + 1];
      const float b_row[8] = {b_left.x, b_left.y, b_left.z, b_left.w, b_right.x, b_right.y, b_right.z, b_right.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) sum[i][j] += a_column[i] * b_row[j];
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
