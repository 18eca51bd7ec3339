// Experiment, not part of the build: which changes to the sgemm twin's algorithm pay on the
// H200, measured against cublasSgemm in one run, before any of them is ported to sgemm.cpp.
//   nvcc -O3 -std=c++17 -arch=sm_90 -lcublas bench/experiments/sgemm_variants.cu -o variants
// Variants: the session-3 twin (B's float4s 2·tx and 2·tx + 1); B's slab stored permuted so
// that a thread's two float4 reads are 16 float4s apart (conflict-free, what the twin does
// since); each of them with double-buffered slabs (one barrier per slab). Self-contained, so
// that it measures the same thing when rerun after the samples change.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

namespace variant {

// kPermuted: B's slab row r holds the left halves of the 16 threads' eight columns in float4s
// 0–15 and the right halves in 16–31. kDouble: two slabs, the next stored while this one is read.
template <bool kPermuted, bool kDouble>
__global__ void __launch_bounds__(256, 2) sgemm(const float* __restrict__ a, const float* __restrict__ b,
                                                std::uint32_t k_size, std::uint32_t n_size,
                                                float* __restrict__ c) {
  constexpr int kBuffers = kDouble ? 2 : 1;
  __shared__ __align__(16) float a_slab[kBuffers][8 * 132];
  __shared__ float4 b_slab[kBuffers][8 * 32];
  const unsigned tx = threadIdx.x, ty = threadIdx.y, l = ty * 16 + tx;
  const bool brings_a = l < 128;
  const unsigned j = l % 128;
  const float4* source = reinterpret_cast<const float4*>(brings_a ? a : b) +
                         2 * (brings_a ? (size_t(blockIdx.y) * 128 + j) * k_size / 8
                                       : size_t(j / 16) * n_size / 8 + size_t(blockIdx.x) * 16 + j % 16);
  const size_t step = brings_a ? 2 : 2 * size_t(n_size);
  const unsigned b_left_slot = kPermuted ? (j / 16) * 32 + j % 16 : 2 * j;
  const unsigned b_right_slot = kPermuted ? b_left_slot + 16 : 2 * j + 1;
  const unsigned read_left = kPermuted ? tx : 2 * tx, read_right = kPermuted ? tx + 16 : 2 * tx + 1;
  float sum[8][8] = {};
  float4 first = __ldg(source), second = __ldg(source + 1);
  auto store = [&](int buffer) {
    if (brings_a) {
      float* s = a_slab[buffer];
      s[0 * 132 + l] = first.x, s[1 * 132 + l] = first.y, s[2 * 132 + l] = first.z, s[3 * 132 + l] = first.w;
      s[4 * 132 + l] = second.x, s[5 * 132 + l] = second.y, s[6 * 132 + l] = second.z, s[7 * 132 + l] = second.w;
    } else {
      b_slab[buffer][b_left_slot] = first;
      b_slab[buffer][b_right_slot] = second;
    }
  };
  const size_t slabs = k_size / 8;
  if (kDouble) {
    store(0);
    __syncthreads();
  }
  for (size_t slab = 0; slab < slabs; ++slab) {
    const int buffer = kDouble ? int(slab & 1) : 0;
    if (!kDouble) {
      store(0);
      __syncthreads();
    }
    if (slab + 1 < slabs) {
      first = __ldg(source + (slab + 1) * step);
      second = __ldg(source + (slab + 1) * step + 1);
    }
#pragma unroll
    for (unsigned k = 0; k < 8; ++k) {
      const float4 a_top = *reinterpret_cast<const float4*>(a_slab[buffer] + k * 132 + ty * 8);
      const float4 a_bottom = *reinterpret_cast<const float4*>(a_slab[buffer] + k * 132 + ty * 8 + 4);
      const float a_column[8] = {a_top.x, a_top.y, a_top.z, a_top.w, a_bottom.x, a_bottom.y, a_bottom.z, a_bottom.w};
      const float4 b_left = b_slab[buffer][k * 32 + read_left], b_right = b_slab[buffer][k * 32 + read_right];
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
    if (kDouble && slab + 1 < slabs) store(buffer ^ 1);
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

}  // namespace variant

namespace {

double median_ms(const std::function<void()>& launch, int warmup, int samples, int batch) {
  for (int i = 0; i < warmup; ++i) launch();
  cudaDeviceSynchronize();
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<float> times;
  for (int i = 0; i < samples; ++i) {
    cudaEventRecord(start);
    for (int b = 0; b < batch; ++b) launch();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    times.push_back(ms / batch);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

double relative_l2(const std::vector<float>& x, const std::vector<float>& y) {
  double diff = 0, norm = 0;
  for (size_t i = 0; i < x.size(); ++i) diff += (x[i] - y[i]) * double(x[i] - y[i]), norm += double(y[i]) * y[i];
  return std::sqrt(diff / norm);
}

}  // namespace

int main() {
  cublasHandle_t cublas;
  cublasCreate(&cublas);
  for (std::uint32_t size : {4096u, 8192u}) {
    const size_t elements = size_t(size) * size;
    std::vector<float> host(elements);
    std::mt19937 rng(size);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    for (float& v : host) v = dist(rng);
    float *a, *b, *c, *c_ref;
    cudaMalloc(&a, elements * 4), cudaMalloc(&b, elements * 4), cudaMalloc(&c, elements * 4), cudaMalloc(&c_ref, elements * 4);
    cudaMemcpy(a, host.data(), elements * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(b, host.data(), elements * 4, cudaMemcpyHostToDevice);
    const float one = 1, zero = 0;
    auto run_cublas = [&] {
      cublasSgemm(cublas, CUBLAS_OP_N, CUBLAS_OP_N, int(size), int(size), int(size), &one, b, int(size), a,
                  int(size), &zero, c_ref, int(size));
    };
    const double flops = 2.0 * size * size * size;
    const double cublas_ms = median_ms(run_cublas, 3, 11, 2);
    std::vector<float> expected(elements), got(elements);
    cudaMemcpy(expected.data(), c_ref, elements * 4, cudaMemcpyDeviceToHost);
    std::printf("%u^3 cublas %.3f ms %.1f TFLOP/s\n", size, cublas_ms, flops / cublas_ms / 1e9);
    const dim3 grid(size / 128, size / 128), block(16, 16);
    struct Named {
      const char* name;
      std::function<void()> launch;
    };
    const Named variants[] = {
        {"twin", [&] { variant::sgemm<false, false><<<grid, block>>>(a, b, size, size, c); }},
        {"permuted B", [&] { variant::sgemm<true, false><<<grid, block>>>(a, b, size, size, c); }},
        {"double", [&] { variant::sgemm<false, true><<<grid, block>>>(a, b, size, size, c); }},
        {"permuted B + double", [&] { variant::sgemm<true, true><<<grid, block>>>(a, b, size, size, c); }},
    };
    for (const Named& v : variants) {
      cudaMemset(c, 0xff, elements * 4);
      const double ms = median_ms(v.launch, 3, 11, 2);
      cudaMemcpy(got.data(), c, elements * 4, cudaMemcpyDeviceToHost);
      std::printf("%u^3 %-22s %.3f ms %.1f TFLOP/s  %.3f of cublas  L2 diff %.2e  %s\n", size, v.name, ms,
                  flops / ms / 1e9, cublas_ms / ms, relative_l2(got, expected), cudaGetErrorString(cudaGetLastError()));
    }
    cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(c_ref);
  }
}
