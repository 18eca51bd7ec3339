// Experiment, not part of the build: how close plain CUDA forms of the memory-bound samples come
// to a device-to-device copy on the H200, varied over launch geometry and work per thread, in one
// run. Tells which gaps in bench/results are the algorithm's and which are the form's.
//   nvcc -O3 -std=c++17 -arch=sm_90 bench/experiments/bandwidth_variants.cu -o bandwidth
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

template <int kPerThread>
__global__ void vecadd(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, size_t n) {
  const size_t first = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) * kPerThread;
  if (kPerThread == 4) {
    const float4 x = __ldg(reinterpret_cast<const float4*>(a + first)), y = __ldg(reinterpret_cast<const float4*>(b + first));
    *reinterpret_cast<float4*>(c + first) = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  } else if (first < n) {
    c[first] = a[first] + b[first];
  }
}

template <int kBlock>
__global__ void __launch_bounds__(kBlock) softmax(const float* __restrict__ in, float* __restrict__ out) {
  constexpr int kChunk = 4096 / kBlock, kWarps = kBlock / 32;
  __shared__ float warp_maxima[kWarps], warp_sums[kWarps];
  const float4* source = reinterpret_cast<const float4*>(in + size_t(blockIdx.x) * 4096);
  float x[kChunk];
#pragma unroll
  for (int q = 0; q < kChunk / 4; ++q) {
    const float4 v = __ldg(source + q * kBlock + threadIdx.x);  // coalesced float4s, strided by the block
    x[4 * q] = v.x, x[4 * q + 1] = v.y, x[4 * q + 2] = v.z, x[4 * q + 3] = v.w;
  }
  float largest = x[0];
#pragma unroll
  for (int j = 1; j < kChunk; ++j) largest = fmaxf(largest, x[j]);
#pragma unroll
  for (unsigned mask = 16; mask > 0; mask >>= 1) largest = fmaxf(largest, __shfl_xor_sync(~0u, largest, mask));
  if (threadIdx.x % 32 == 0) warp_maxima[threadIdx.x / 32] = largest;
  __syncthreads();
#pragma unroll
  for (int w = 0; w < kWarps; ++w) largest = fmaxf(largest, warp_maxima[w]);
  float sum = 0.f;
#pragma unroll
  for (int j = 0; j < kChunk; ++j) sum += (x[j] = expf(x[j] - largest));
#pragma unroll
  for (unsigned mask = 16; mask > 0; mask >>= 1) sum += __shfl_xor_sync(~0u, sum, mask);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  float total = 0.f;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) total += warp_sums[w];
  const float inverse = 1.f / total;
  float4* target = reinterpret_cast<float4*>(out + size_t(blockIdx.x) * 4096);
#pragma unroll
  for (int q = 0; q < kChunk / 4; ++q)
    target[q * kBlock + threadIdx.x] =
        make_float4(x[4 * q] * inverse, x[4 * q + 1] * inverse, x[4 * q + 2] * inverse, x[4 * q + 3] * inverse);
}

// kRows rows of the tile per thread; a 32-wide tile of 32 × kRows-thread blocks... tile side kSide.
template <int kSide, int kThreadsY>
__global__ void transpose(const float* __restrict__ in, unsigned rows, unsigned cols, float* __restrict__ out) {
  __shared__ float tile[kSide][kSide + 1];
  constexpr int kPer = kSide / kThreadsY;
  for (int x = threadIdx.x; x < kSide; x += 32) {
    const size_t in_col = size_t(blockIdx.y) * kSide + x;
#pragma unroll
    for (int j = 0; j < kPer; ++j) {
      const unsigned r = threadIdx.y + j * kThreadsY;
      tile[r][x] = __ldg(in + (size_t(blockIdx.x) * kSide + r) * cols + in_col);
    }
  }
  __syncthreads();
  for (int x = threadIdx.x; x < kSide; x += 32) {
    const size_t out_col = size_t(blockIdx.x) * kSide + x;
#pragma unroll
    for (int i = 0; i < kPer; ++i) {
      const unsigned r = threadIdx.y + i * kThreadsY;
      out[(size_t(blockIdx.y) * kSide + r) * rows + out_col] = tile[x][r];
    }
  }
}

// As transpose, but each thread writes kPer consecutive rows of the output tile (the twin's order).
template <int kThreadsY>
__global__ void transpose_blocked(const float* __restrict__ in, unsigned rows, unsigned cols, float* __restrict__ out) {
  __shared__ float tile[32][33];
  constexpr int kPer = 32 / kThreadsY;
  const size_t in_col = size_t(blockIdx.y) * 32 + threadIdx.x;
#pragma unroll
  for (int j = 0; j < kPer; ++j) {
    const unsigned r = threadIdx.y + j * kThreadsY;
    tile[r][threadIdx.x] = __ldg(in + (size_t(blockIdx.x) * 32 + r) * cols + in_col);
  }
  __syncthreads();
  const size_t out_col = size_t(blockIdx.x) * 32 + threadIdx.x;
#pragma unroll
  for (int i = 0; i < kPer; ++i)
    out[(size_t(blockIdx.y) * 32 + threadIdx.y * kPer + i) * rows + out_col] = tile[threadIdx.x][threadIdx.y * kPer + i];
}

// Radius-4 stencil over float4s: kPer float4s of output per thread, consecutive (kStrided false)
// or 256 apart; the block's float4s and one of halo on each side in shared memory. n a multiple of
// 1024 · kPer here.
template <int kPer, bool kStrided>
__global__ void __launch_bounds__(256) stencil(const float* __restrict__ in, const float* __restrict__ taps,
                                               float* __restrict__ out) {
  __shared__ float4 tile[256 * kPer + 2];
  __shared__ float w[9];
  if (threadIdx.x < 9) w[threadIdx.x] = taps[threadIdx.x];
  const float4* in4 = reinterpret_cast<const float4*>(in);
  const size_t first = size_t(blockIdx.x) * 256 * kPer;
#pragma unroll
  for (int q = 0; q < kPer; ++q) tile[1 + q * 256 + threadIdx.x] = __ldg(in4 + first + q * 256 + threadIdx.x);
  if (threadIdx.x == 0) tile[0] = first > 0 ? __ldg(in4 + first - 1) : make_float4(0, 0, 0, 0);
  if (threadIdx.x == 1) tile[256 * kPer + 1] = __ldg(in4 + first + 256 * kPer);  // reads one past the last block: test size leaves room
  __syncthreads();
#pragma unroll
  for (int q = 0; q < kPer; ++q) {
    const unsigned mine = kStrided ? q * 256 + threadIdx.x : threadIdx.x * kPer + q;
    float around[12];
#pragma unroll
    for (int c = 0; c < 3; ++c) {
      const float4 part = tile[mine + c];
      around[c * 4] = part.x, around[c * 4 + 1] = part.y, around[c * 4 + 2] = part.z, around[c * 4 + 3] = part.w;
    }
    float result[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      float sum = 0.f;
#pragma unroll
      for (int k = 0; k < 9; ++k) sum += w[k] * around[i + k];
      result[i] = sum;
    }
    reinterpret_cast<float4*>(out)[first + mine] = make_float4(result[0], result[1], result[2], result[3]);
  }
}

__global__ void copy4(const float4* __restrict__ in, float4* __restrict__ out, size_t n4) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n4) out[i] = __ldg(in + i);
}

double median_ms(const std::function<void()>& launch) {
  for (int i = 0; i < 10; ++i) launch();
  cudaDeviceSynchronize();
  cudaEvent_t start, stop;
  cudaEventCreate(&start), cudaEventCreate(&stop);
  std::vector<float> times;
  for (int i = 0; i < 30; ++i) {
    cudaEventRecord(start);
    for (int b = 0; b < 10; ++b) launch();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    times.push_back(ms / 10);
  }
  std::sort(times.begin(), times.end());
  return times[15];
}

}  // namespace

int main() {
  const size_t n = size_t(1) << 26, big = size_t(1) << 28;
  float *a, *b, *c;
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  // a and c hold twice the largest vector, so that a copy of a whole vecadd's bytes fits.
  cudaMalloc(&a, 2 * big * 4), cudaMalloc(&b, big * 4), cudaMalloc(&c, 2 * big * 4);
  cudaMemset(a, 0, 2 * big * 4), cudaMemset(b, 0, big * 4);
  auto report = [](const char* name, double bytes, double ms, double copy_gbs) {
    const double gbs = bytes / ms / 1e6;
    std::printf("%-44s %.4f ms %6.0f GB/s %.3f of copy\n", name, ms, gbs, gbs / copy_gbs);
  };
  for (size_t elements : {n, big}) {
    const double bytes = 12.0 * elements;
    const double copy_ms = median_ms([&] { cudaMemcpyAsync(c, a, size_t(bytes / 2), cudaMemcpyDeviceToDevice); });
    const double copy_gbs = bytes / copy_ms / 1e6;
    std::printf("-- vecadd over %zu floats; memcpy of the same bytes: %.0f GB/s\n", elements, copy_gbs);
    report("copy kernel, float4, 256", bytes, median_ms([&] {
             copy4<<<unsigned(bytes / 32 / 256), 256>>>(reinterpret_cast<float4*>(a), reinterpret_cast<float4*>(c), size_t(bytes / 32));
           }), copy_gbs);
    for (unsigned block : {128u, 256u, 512u, 1024u})
      report(block == 128 ? "vecadd 1/thread, 128" : block == 256 ? "vecadd 1/thread, 256" : block == 512 ? "vecadd 1/thread, 512" : "vecadd 1/thread, 1024",
             bytes, median_ms([&] { vecadd<1><<<unsigned(elements / block), block>>>(a, b, c, elements); }), copy_gbs);
    report("vecadd float4/thread, 256", bytes,
           median_ms([&] { vecadd<4><<<unsigned(elements / 4 / 256), 256>>>(a, b, c, elements); }), copy_gbs);
  }
  {
    const size_t rows = 16384, elements = rows * 4096;
    const double bytes = 8.0 * elements;
    const double copy_gbs = bytes / median_ms([&] { cudaMemcpyAsync(c, a, elements * 4, cudaMemcpyDeviceToDevice); }) / 1e6;
    std::printf("-- softmax 16384 x 4096; memcpy %.0f GB/s\n", copy_gbs);
    report("softmax block 128 x 32", bytes, median_ms([&] { softmax<128><<<rows, 128>>>(a, c); }), copy_gbs);
    report("softmax block 256 x 16", bytes, median_ms([&] { softmax<256><<<rows, 256>>>(a, c); }), copy_gbs);
    report("softmax block 512 x 8", bytes, median_ms([&] { softmax<512><<<rows, 512>>>(a, c); }), copy_gbs);
    report("softmax block 1024 x 4", bytes, median_ms([&] { softmax<1024><<<rows, 1024>>>(a, c); }), copy_gbs);
  }
  {
    const unsigned side = 8192;
    const double bytes = 8.0 * side * side;
    const double copy_gbs = bytes / median_ms([&] { cudaMemcpyAsync(c, a, size_t(side) * side * 4, cudaMemcpyDeviceToDevice); }) / 1e6;
    std::printf("-- transpose 8192^2; memcpy %.0f GB/s\n", copy_gbs);
    report("transpose 32 tile, 32 x 8", bytes, median_ms([&] { transpose<32, 8><<<dim3(side / 32, side / 32), dim3(32, 8)>>>(a, side, side, c); }), copy_gbs);
    report("transpose 32 tile, 32 x 4", bytes, median_ms([&] { transpose<32, 4><<<dim3(side / 32, side / 32), dim3(32, 4)>>>(a, side, side, c); }), copy_gbs);
    report("transpose 64 tile, 32 x 8", bytes, median_ms([&] { transpose<64, 8><<<dim3(side / 64, side / 64), dim3(32, 8)>>>(a, side, side, c); }), copy_gbs);
    report("transpose 64 tile, 32 x 16", bytes, median_ms([&] { transpose<64, 16><<<dim3(side / 64, side / 64), dim3(32, 16)>>>(a, side, side, c); }), copy_gbs);
    report("transpose 32 tile, 32 x 16", bytes, median_ms([&] { transpose<32, 16><<<dim3(side / 32, side / 32), dim3(32, 16)>>>(a, side, side, c); }), copy_gbs);
  }
  {
    const unsigned side = 8192;
    const double bytes = 8.0 * side * side;
    const double copy_gbs = bytes / median_ms([&] { cudaMemcpyAsync(c, a, size_t(side) * side * 4, cudaMemcpyDeviceToDevice); }) / 1e6;
    report("transpose blocked rows, 32 x 8 (the twin)", bytes, median_ms([&] { transpose_blocked<8><<<dim3(side / 32, side / 32), dim3(32, 8)>>>(a, side, side, c); }), copy_gbs);
    report("transpose blocked rows, 32 x 4", bytes, median_ms([&] { transpose_blocked<4><<<dim3(side / 32, side / 32), dim3(32, 4)>>>(a, side, side, c); }), copy_gbs);
    report("transpose blocked rows, 32 x 2", bytes, median_ms([&] { transpose_blocked<2><<<dim3(side / 32, side / 32), dim3(32, 2)>>>(a, side, side, c); }), copy_gbs);
  }
  {
    const size_t elements = n;
    const double bytes = 8.0 * elements;
    const double copy_gbs = bytes / median_ms([&] { cudaMemcpyAsync(c, a, elements * 4, cudaMemcpyDeviceToDevice); }) / 1e6;
    std::printf("-- stencil 2^26, radius 4; memcpy %.0f GB/s\n", copy_gbs);
    report("stencil 1 float4 per thread", bytes, median_ms([&] { stencil<1, false><<<unsigned(elements / 1024), 256>>>(a, b, c); }), copy_gbs);
    report("stencil 2 float4s, consecutive", bytes, median_ms([&] { stencil<2, false><<<unsigned(elements / 2048), 256>>>(a, b, c); }), copy_gbs);
    report("stencil 2 float4s, 256 apart", bytes, median_ms([&] { stencil<2, true><<<unsigned(elements / 2048), 256>>>(a, b, c); }), copy_gbs);
    report("stencil 4 float4s, 256 apart", bytes, median_ms([&] { stencil<4, true><<<unsigned(elements / 4096), 256>>>(a, b, c); }), copy_gbs);
  }
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
