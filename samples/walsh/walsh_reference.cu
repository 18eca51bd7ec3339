// The same fast Walsh-Hadamard transform as a CUDA programmer writes it: NVIDIA's
// fastWalshTransform kernels (fwtBatch2Kernel's radix-4 stages over the whole array, then
// fwtBatch1Kernel on pieces of 2^11 in shared memory), in place, with the sample's launch
// geometry (256-thread stages, 512-thread pieces). The benchmark's twin.
#include <cuda_runtime.h>

#include <cstddef>

namespace reference {
namespace {

constexpr int kElementaryLog2 = 11;

__global__ void fwtBatch1Kernel(float* d_Output, float* d_Input, int log2N) {
  const int N = 1 << log2N;
  const int base = blockIdx.x << log2N;
  extern __shared__ float s_data[];
  float* d_Src = d_Input + base;
  float* d_Dst = d_Output + base;
  for (int pos = threadIdx.x; pos < N; pos += blockDim.x) s_data[pos] = d_Src[pos];
  const int pos = threadIdx.x;
  for (int stride = N >> 2; stride > 0; stride >>= 2) {
    const int lo = pos & (stride - 1);
    const int i0 = ((pos - lo) << 2) + lo;
    const int i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;
    __syncthreads();
    float D0 = s_data[i0], D1 = s_data[i1], D2 = s_data[i2], D3 = s_data[i3];
    float T = D0;
    D0 = D0 + D2;
    D2 = T - D2;
    T = D1;
    D1 = D1 + D3;
    D3 = T - D3;
    T = D0;
    s_data[i0] = D0 + D1;
    s_data[i1] = T - D1;
    T = D2;
    s_data[i2] = D2 + D3;
    s_data[i3] = T - D3;
  }
  if (log2N & 1) {
    __syncthreads();
    for (int pos = threadIdx.x; pos < N / 2; pos += blockDim.x) {
      const int i0 = pos << 1, i1 = i0 + 1;
      const float D0 = s_data[i0], D1 = s_data[i1];
      s_data[i0] = D0 + D1;
      s_data[i1] = D0 - D1;
    }
  }
  __syncthreads();
  for (int pos = threadIdx.x; pos < N; pos += blockDim.x) d_Dst[pos] = s_data[pos];
}

__global__ void fwtBatch2Kernel(float* d_Output, float* d_Input, int stride) {
  const int pos = blockIdx.x * blockDim.x + threadIdx.x;
  const int N = blockDim.x * gridDim.x * 4;
  float* d_Src = d_Input + blockIdx.y * N;
  float* d_Dst = d_Output + blockIdx.y * N;
  const int lo = pos & (stride - 1);
  const int i0 = ((pos - lo) << 2) + lo;
  const int i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;
  float D0 = d_Src[i0], D1 = d_Src[i1], D2 = d_Src[i2], D3 = d_Src[i3];
  float T = D0;
  D0 = D0 + D2;
  D2 = T - D2;
  T = D1;
  D1 = D1 + D3;
  D3 = T - D3;
  T = D0;
  d_Dst[i0] = D0 + D1;
  d_Dst[i1] = T - D1;
  T = D2;
  d_Dst[i2] = D2 + D3;
  d_Dst[i3] = T - D3;
}

}  // namespace

// fastWalshTransform's fwtBatchGPU for one vector of n = 2^log2N floats (log2N odd, ≥ 11).
void launch_walsh(float* data, std::size_t n) {
  const int THREAD_N = 256;
  int log2N = 0;
  while ((std::size_t(1) << log2N) < n) ++log2N;
  int N = 1 << log2N, M = 1;
  const dim3 grid((1 << log2N) / (4 * THREAD_N), M, 1);
  for (; log2N > kElementaryLog2; log2N -= 2, N >>= 2, M <<= 2)
    fwtBatch2Kernel<<<grid, THREAD_N>>>(data, data, N / 4);
  fwtBatch1Kernel<<<M, N / 4, N * sizeof(float)>>>(data, data, log2N);
}

}  // namespace reference
