// The same SGEMM as a CUDA programmer writes it by hand: 128 × 128 tiles of C per block of
// 16 × 16 threads, 8 × 8 per thread in registers, K in slabs of 8. Warps 0–3 bring A's slab (a
// row per thread) and store it transposed with rows padded to 132; warps 4–7 bring B's (eight
// floats of a row each, the two halves stored 64 columns apart so that reads are conflict-free).
// The next slab's loads are issued before the current one is multiplied; results are stored as
// float4s. The benchmark's twin.
#include <cuda_runtime.h>

#include <cstdint>

namespace reference {

__global__ void __launch_bounds__(256, 2) sgemm(const float* __restrict__ a, const float* __restrict__ b,
                                                std::uint32_t k_size, std::uint32_t n_size,
                                                float* __restrict__ c) {
  __shared__ __align__(16) float a_slab[8 * 132];  // [k][m], padded
  __shared__ float4 b_slab[8 * 128 / 4];            // [k][n / 4]
  const unsigned tx = threadIdx.x, ty = threadIdx.y, l = ty * 16 + tx;
  const bool brings_a = l < 128;
  const unsigned j = l % 128;
  // Eight floats per thread and slab: row j of A's slab, or row j / 16 of B's at columns 8·(j % 16).
  const float4* source = reinterpret_cast<const float4*>(brings_a ? a : b) +
                         2 * (brings_a ? (size_t(blockIdx.y) * 128 + j) * k_size / 8
                                       : size_t(j / 16) * n_size / 8 + size_t(blockIdx.x) * 16 + j % 16);
  const size_t step = brings_a ? 2 : 2 * size_t(n_size);  // one slab on, in float4s
  float sum[8][8] = {};
  float4 next_first = __ldg(source), next_second = __ldg(source + 1);
  const size_t slabs = k_size / 8;
  for (size_t slab = 0; slab < slabs; ++slab) {
    if (brings_a) {
      a_slab[0 * 132 + l] = next_first.x, a_slab[1 * 132 + l] = next_first.y;
      a_slab[2 * 132 + l] = next_first.z, a_slab[3 * 132 + l] = next_first.w;
      a_slab[4 * 132 + l] = next_second.x, a_slab[5 * 132 + l] = next_second.y;
      a_slab[6 * 132 + l] = next_second.z, a_slab[7 * 132 + l] = next_second.w;
    } else {
      // Row ty − 8 of the slab: the left half at float4 tx, the right half at 16 + tx.
      b_slab[(ty - 8) * 32 + tx] = next_first;
      b_slab[(ty - 8) * 32 + 16 + tx] = next_second;
    }
    __syncthreads();
    if (slab + 1 < slabs) {
      next_first = __ldg(source + (slab + 1) * step);
      next_second = __ldg(source + (slab + 1) * step + 1);
    }
#pragma unroll
    for (unsigned k = 0; k < 8; ++k) {
      const float4 a_top = *reinterpret_cast<const float4*>(a_slab + k * 132 + ty * 8);
      const float4 a_bottom = *reinterpret_cast<const float4*>(a_slab + k * 132 + ty * 8 + 4);
      const float a_column[8] = {a_top.x, a_top.y, a_top.z, a_top.w, a_bottom.x, a_bottom.y, a_bottom.z, a_bottom.w};
      const float4 b_left = b_slab[k * 32 + tx], b_right = b_slab[k * 32 + 16 + tx];
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
