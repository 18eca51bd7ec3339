// The same transpose as a CUDA programmer writes it by hand: a 32 × 33 shared tile, 32 × 4
// threads moving eight rows each, four apart, coalesced reads and writes. The benchmark's twin.
#include <cuda_runtime.h>

#include <cstdint>

namespace reference {

__global__ void __launch_bounds__(128, 16) transpose(const float* __restrict__ in, std::uint32_t rows,
                                                 std::uint32_t cols, float* __restrict__ out) {
  __shared__ float tile[32][33];
  const size_t in_col = size_t(blockIdx.y) * 32 + threadIdx.x;
#pragma unroll
  for (unsigned j = 0; j < 8; ++j) {
    const unsigned r = threadIdx.y + j * 4;
    const size_t in_row = size_t(blockIdx.x) * 32 + r;
    if (in_row < rows && in_col < cols) tile[r][threadIdx.x] = __ldg(in + in_row * cols + in_col);
  }
  __syncthreads();
  const size_t out_col = size_t(blockIdx.x) * 32 + threadIdx.x;
#pragma unroll
  for (unsigned i = 0; i < 8; ++i) {
    const size_t out_row = size_t(blockIdx.y) * 32 + threadIdx.y + i * 4;
    if (out_row < cols && out_col < rows) out[out_row * rows + out_col] = tile[threadIdx.x][threadIdx.y + i * 4];
  }
}

// cuda-samples' block order: block (bx, by) reads the input tile at (row by, column bx) and
// writes the output tile at (row bx, column by).
__global__ void __launch_bounds__(128, 16) transpose_row_order(const float* __restrict__ in, std::uint32_t rows,
                                                           std::uint32_t cols, float* __restrict__ out) {
  __shared__ float tile[32][33];
  const size_t in_col = size_t(blockIdx.x) * 32 + threadIdx.x;
#pragma unroll
  for (unsigned j = 0; j < 8; ++j) {
    const unsigned r = threadIdx.y + j * 4;
    const size_t in_row = size_t(blockIdx.y) * 32 + r;
    if (in_row < rows && in_col < cols) tile[r][threadIdx.x] = __ldg(in + in_row * cols + in_col);
  }
  __syncthreads();
  const size_t out_col = size_t(blockIdx.y) * 32 + threadIdx.x;
#pragma unroll
  for (unsigned i = 0; i < 8; ++i) {
    const size_t out_row = size_t(blockIdx.x) * 32 + threadIdx.y + i * 4;
    if (out_row < cols && out_col < rows) out[out_row * rows + out_col] = tile[threadIdx.x][threadIdx.y + i * 4];
  }
}

void launch_transpose_row_order(const float* in, std::uint32_t rows, std::uint32_t cols, float* out) {
  transpose_row_order<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 4)>>>(in, rows, cols, out);
}

void launch_transpose(const float* in, std::uint32_t rows, std::uint32_t cols, float* out) {
  transpose<<<dim3((rows + 31) / 32, (cols + 31) / 32), dim3(32, 4)>>>(in, rows, cols, out);
}

}  // namespace reference
