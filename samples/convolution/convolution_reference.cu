// The same separable convolution as a CUDA programmer writes it: NVIDIA's convolutionSeparable
// kernels as the sample has them (taps in __constant__ memory, pointer offsets, the rows pass into
// a buffer, then the columns pass), with its launch geometry. The benchmark's twin.
#include <cuda_runtime.h>

namespace reference {
namespace {

constexpr int KERNEL_RADIUS = 8;
constexpr int KERNEL_LENGTH = 2 * KERNEL_RADIUS + 1;
__constant__ float c_Kernel[KERNEL_LENGTH];

constexpr int ROWS_BLOCKDIM_X = 16, ROWS_BLOCKDIM_Y = 4, ROWS_RESULT_STEPS = 8, ROWS_HALO_STEPS = 1;

__global__ void convolutionRowsKernel(float* d_Dst, const float* d_Src, int imageW, int imageH, int pitch) {
  __shared__ float s_Data[ROWS_BLOCKDIM_Y][(ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X];
  const int baseX = (blockIdx.x * ROWS_RESULT_STEPS - ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X + threadIdx.x;
  const int baseY = blockIdx.y * ROWS_BLOCKDIM_Y + threadIdx.y;
  d_Src += baseY * pitch + baseX;
  d_Dst += baseY * pitch + baseX;
#pragma unroll
  for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++)
    s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] = d_Src[i * ROWS_BLOCKDIM_X];
#pragma unroll
  for (int i = 0; i < ROWS_HALO_STEPS; i++)
    s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] =
        (baseX >= -i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;
#pragma unroll
  for (int i = ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS + ROWS_HALO_STEPS; i++)
    s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] =
        (imageW - baseX > i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;
  __syncthreads();
#pragma unroll
  for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
    float sum = 0;
#pragma unroll
    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
      sum += c_Kernel[KERNEL_RADIUS - j] * s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X + j];
    d_Dst[i * ROWS_BLOCKDIM_X] = sum;
  }
}

constexpr int COLUMNS_BLOCKDIM_X = 16, COLUMNS_BLOCKDIM_Y = 8, COLUMNS_RESULT_STEPS = 8, COLUMNS_HALO_STEPS = 1;

__global__ void convolutionColumnsKernel(float* d_Dst, const float* d_Src, int imageW, int imageH, int pitch) {
  __shared__ float s_Data[COLUMNS_BLOCKDIM_X][(COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + 1];
  const int baseX = blockIdx.x * COLUMNS_BLOCKDIM_X + threadIdx.x;
  const int baseY = (blockIdx.y * COLUMNS_RESULT_STEPS - COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + threadIdx.y;
  d_Src += baseY * pitch + baseX;
  d_Dst += baseY * pitch + baseX;
#pragma unroll
  for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++)
    s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] = d_Src[i * COLUMNS_BLOCKDIM_Y * pitch];
#pragma unroll
  for (int i = 0; i < COLUMNS_HALO_STEPS; i++)
    s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] =
        (baseY >= -i * COLUMNS_BLOCKDIM_Y) ? d_Src[i * COLUMNS_BLOCKDIM_Y * pitch] : 0;
#pragma unroll
  for (int i = COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS + COLUMNS_HALO_STEPS; i++)
    s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] =
        (imageH - baseY > i * COLUMNS_BLOCKDIM_Y) ? d_Src[i * COLUMNS_BLOCKDIM_Y * pitch] : 0;
  __syncthreads();
#pragma unroll
  for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++) {
    float sum = 0;
#pragma unroll
    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
      sum += c_Kernel[KERNEL_RADIUS - j] * s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y + j];
    d_Dst[i * COLUMNS_BLOCKDIM_Y * pitch] = sum;
  }
}

}  // namespace

void set_convolution_taps(const float* taps) {
  cudaMemcpyToSymbol(c_Kernel, taps, KERNEL_LENGTH * sizeof(float));
}

// imageW a multiple of 128, imageH of 64, as the sample asserts.
void launch_convolution(float* d_Dst, float* d_Buffer, const float* d_Src, int imageW, int imageH) {
  convolutionRowsKernel<<<dim3(imageW / (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X), imageH / ROWS_BLOCKDIM_Y),
                          dim3(ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y)>>>(d_Buffer, d_Src, imageW, imageH, imageW);
  convolutionColumnsKernel<<<dim3(imageW / COLUMNS_BLOCKDIM_X, imageH / (COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y)),
                             dim3(COLUMNS_BLOCKDIM_X, COLUMNS_BLOCKDIM_Y)>>>(d_Dst, d_Buffer, imageW, imageH, imageW);
}

}  // namespace reference
