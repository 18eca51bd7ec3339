// Experiment, not part of the build: why samples/walsh runs at 0.96 of its twin. Times the
// radix-4 global stage (fastWalshTransform's fwtBatch2Kernel) with its `int` index arithmetic,
// the same stage with 64-bit arithmetic as get_mut_radix<4> computes it (size_t witness,
// (i − lo)·4 + lo, + k·stride), and that 64-bit form with an end test, all in place on 2^23
// floats at each stride the sample uses; then the whole sample's stage sequence each way.
//   nvcc -O3 -std=c++17 -arch=sm_90 bench/experiments/walsh_index_width.cu -o walsh_width && ./walsh_width
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

__device__ __forceinline__ void butterfly(float& d0, float& d1, float& d2, float& d3) {
  const float a = d0 + d2, b = d0 - d2, c = d1 + d3, d = d1 - d3;
  d0 = a + c;
  d1 = a - c;
  d2 = b + d;
  d3 = b - d;
}

// fwtBatch2Kernel's arithmetic: int.
__global__ void __launch_bounds__(256) stage_int(float* data, int stride) {
  const int pos = blockIdx.x * blockDim.x + threadIdx.x;
  const int lo = pos & (stride - 1);
  const int i0 = ((pos - lo) << 2) + lo;
  butterfly(data[i0], data[i0 + stride], data[i0 + 2 * stride], data[i0 + 3 * stride]);
}

// get_mut_radix<4>'s arithmetic: size_t throughout, index = first + k·stride.
__global__ void __launch_bounds__(256) stage_size_t(float* data, std::size_t stride) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t lo = i & (stride - 1);
  const std::size_t first = (i - lo) * 4 + lo;
  butterfly(data[first], data[first + stride], data[first + 2 * stride], data[first + 3 * stride]);
}

// The same with get_mut_radix's end test and power-of-two check (what a checked build runs).
__global__ void __launch_bounds__(256) stage_size_t_checked(float* data, std::size_t size, std::size_t stride) {
  if (stride == 0 || (stride & (stride - 1)) != 0) __trap();
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t lo = i & (stride - 1);
  const std::size_t first = (i - lo) * 4 + lo;
  if (first + 3 * stride < size)
    butterfly(data[first], data[first + stride], data[first + 2 * stride], data[first + 3 * stride]);
}

float median_ms(const std::function<void()>& launch) {
  for (int i = 0; i < 5; ++i) launch();
  cudaDeviceSynchronize();
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<float> times;
  for (int s = 0; s < 21; ++s) {
    cudaEventRecord(start);
    for (int j = 0; j < 10; ++j) launch();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    times.push_back(ms / 10);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main() {
  const std::size_t n = std::size_t(1) << 23;
  float* data = nullptr;
  cudaMalloc(&data, n * sizeof(float));
  cudaMemset(data, 0, n * sizeof(float));
  const unsigned blocks = unsigned(n / 4 / 256);
  std::printf("radix-4 stage over 2^23 floats in place, 256 threads, %u blocks (µs per launch)\n", blocks);
  std::printf("%10s %10s %10s %16s\n", "stride", "int", "size_t", "size_t+checks");
  for (std::size_t piece = n; piece > 2048; piece /= 4) {
    const std::size_t stride = piece / 4;
    const float a = median_ms([&] { stage_int<<<blocks, 256>>>(data, int(stride)); });
    const float b = median_ms([&] { stage_size_t<<<blocks, 256>>>(data, stride); });
    const float c = median_ms([&] { stage_size_t_checked<<<blocks, 256>>>(data, n, stride); });
    std::printf("%10zu %10.2f %10.2f %16.2f   size_t/int %.3f  checked/int %.3f\n", stride, a * 1e3, b * 1e3,
                c * 1e3, a / b, a / c);
  }
  const cudaError_t error = cudaDeviceSynchronize();
  std::printf("%s\n", error == cudaSuccess ? "ok" : cudaGetErrorString(error));
  cudaFree(data);
  return error == cudaSuccess ? 0 : 1;
}
