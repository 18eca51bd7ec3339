// The measuring half of the bf16 GEMM experiments (mma_sync_gemm.cu, wgmma_tma_gemm.cu): random
// inputs, cuBLAS as reference and rival, correctness by norm, median timing, the copy ceiling.
// Each experiment is one translation unit, so the helpers sit in an unnamed namespace.
#pragma once

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#define CHECK_CUDA(call)                                                                         \
  do {                                                                                           \
    cudaError_t status_ = (call);                                                                \
    if (status_ != cudaSuccess) {                                                                \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(status_)); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

using bf16 = __nv_bfloat16;


namespace {

using Launch = void (*)(const bf16*, const bf16*, bf16*, int, int, int);
struct Variant {
  const char* name;
  int bm, bn, bk, threads, smem_bytes;
  Launch fast, edge;
  int fast_blocks, edge_blocks;  // resident blocks an SM, from the occupancy calculator
};

__global__ void fill_random(bf16* p, size_t n, std::uint32_t seed) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    std::uint64_t x = (std::uint64_t(seed) << 40) ^ i;  // splitmix64: a fixed, position-keyed stream
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    p[i] = __float2bfloat16_rn(float(x >> 40) * (2.f / 16777216.f) - 1.f);  // uniform in [-1, 1)
  }
}

double median_ms(const std::function<void()>& launch, int warmup = 5, int samples = 15) {
  for (int i = 0; i < warmup; ++i) launch();
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int i = 0; i < samples; ++i) {
    CHECK_CUDA(cudaEventRecord(start));
    launch();
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

float to_float(bf16 v) {
  std::uint16_t bits;
  std::memcpy(&bits, &v, 2);
  const std::uint32_t wide = std::uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &wide, 4);
  return f;
}

std::vector<float> download(const bf16* device, size_t n) {
  std::vector<bf16> raw(n);
  CHECK_CUDA(cudaMemcpy(raw.data(), device, n * sizeof(bf16), cudaMemcpyDeviceToHost));
  std::vector<float> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = to_float(raw[i]);
  return out;
}

// Norm-based errors, since elementwise relative error is meaningless near zero: relative L2 and
// max |got − expected| / max |expected|. Both outputs are rounded to bf16 (2^-9 relative), so a
// correct kernel sits near 1e-3; a layout or masking bug lands near 1 or NaN.
constexpr double kL2Tolerance = 1e-2, kMaxTolerance = 2e-2;
struct Error {
  double l2, max;
  bool pass() const { return l2 < kL2Tolerance && max < kMaxTolerance; }  // false on NaN
};
template <class Expected>
Error compare(const std::vector<float>& got, const std::vector<Expected>& expected) {
  double diff = 0, norm = 0, max_diff = 0, max_ref = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(got[i])) return {NAN, NAN};  // unwritten (the 0xffff fill) or poisoned
    const double d = std::fabs(got[i] - double(expected[i]));
    diff += d * d, norm += double(expected[i]) * expected[i];
    max_diff = std::max(max_diff, d), max_ref = std::max(max_ref, std::fabs(double(expected[i])));
  }
  return {std::sqrt(diff / norm), max_diff / max_ref};
}

struct Problem {
  int m, n, k;
  bf16 *a, *b, *c, *c_cublas;
  Problem(int m_, int n_, int k_) : m(m_), n(n_), k(k_) {
    CHECK_CUDA(cudaMalloc(&a, size_t(m) * k * sizeof(bf16)));
    CHECK_CUDA(cudaMalloc(&b, size_t(k) * n * sizeof(bf16)));
    CHECK_CUDA(cudaMalloc(&c, size_t(m) * n * sizeof(bf16)));
    CHECK_CUDA(cudaMalloc(&c_cublas, size_t(m) * n * sizeof(bf16)));
    fill_random<<<1024, 256>>>(a, size_t(m) * k, 1234u + m);  // fixed seeds: the same inputs every run
    fill_random<<<1024, 256>>>(b, size_t(k) * n, 5678u + n);
    CHECK_CUDA(cudaGetLastError());
  }
  ~Problem() { cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(c_cublas); }
  size_t c_elements() const { return size_t(m) * n; }
  double flops() const { return 2.0 * m * n * k; }
  void poison_c() const { CHECK_CUDA(cudaMemset(c, 0xff, c_elements() * sizeof(bf16))); }  // bf16 NaN
};

// Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: hand cuBLAS B as its first operand.
void run_cublas(cublasHandle_t handle, const Problem& p) {
  const float one = 1.f, zero = 0.f;
  const cublasStatus_t status =
      cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, p.n, p.m, p.k, &one, p.b, CUDA_R_16BF, p.n, p.a, CUDA_R_16BF,
                   p.k, &zero, p.c_cublas, CUDA_R_16BF, p.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasGemmEx failed: %d\n", int(status));
    std::exit(1);
  }
}

bool fits_fast_path(const Variant& v, const Problem& p) {
  return p.m % v.bm == 0 && p.n % v.bn == 0 && p.k % v.bk == 0;
}

// Small sizes against a float64 CPU product of the same bf16 inputs.
bool check_against_cpu(cublasHandle_t handle, const std::vector<Variant>& variants, int m, int n, int k) {
  Problem p(m, n, k);
  CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<float> a = download(p.a, size_t(m) * k), b = download(p.b, size_t(k) * n);
  std::vector<double> expected(size_t(m) * n, 0.0);
  for (int i = 0; i < m; ++i)
    for (int l = 0; l < k; ++l) {
      const double x = a[size_t(i) * k + l];
      for (int j = 0; j < n; ++j) expected[size_t(i) * n + j] += x * b[size_t(l) * n + j];
    }
  bool all = true;
  auto report = [&](const char* name, const char* path, const std::vector<float>& got) {
    const Error e = compare(got, expected);
    all = all && e.pass();
    std::printf("  cpu check %dx%dx%d  %-15s %-5s  rel L2 %.2e  max %.2e  %s\n", m, n, k, name, path, e.l2, e.max,
                e.pass() ? "PASS" : "FAIL");
  };
  run_cublas(handle, p);
  report("cublas", "", download(p.c_cublas, p.c_elements()));
  for (const Variant& v : variants)
    for (int edge = 0; edge < 2; ++edge) {
      if (!edge && !fits_fast_path(v, p)) continue;
      p.poison_c();
      (edge ? v.edge : v.fast)(p.a, p.b, p.c, m, n, k);
      CHECK_CUDA(cudaGetLastError());
      report(v.name, edge ? "edge" : "fast", download(p.c, p.c_elements()));
    }
  return all;
}

struct Measured {
  double tflops;
  bool pass;
};

// One size: cuBLAS first (its output is the reference), then every variant's applicable paths.
bool measure(cublasHandle_t handle, const std::vector<Variant>& variants, int m, int n, int k,
             std::vector<std::vector<Measured>>* fast_results) {
  Problem p(m, n, k);
  const double cublas_ms = median_ms([&] { run_cublas(handle, p); });
  const std::vector<float> expected = download(p.c_cublas, p.c_elements());
  std::printf("%5dx%5dx%5d  %-15s       %8.3f ms  %6.1f TFLOP/s\n", m, n, k, "cublas", cublas_ms,
              p.flops() / cublas_ms / 1e9);
  bool all = true;
  std::vector<Measured> fast_row;
  for (const Variant& v : variants)
    for (int edge = 0; edge < 2; ++edge) {
      if (!edge && !fits_fast_path(v, p)) {
        fast_row.push_back({0, true});
        continue;
      }
      const Launch launch = edge ? v.edge : v.fast;
      p.poison_c();
      const double ms = median_ms([&] { launch(p.a, p.b, p.c, m, n, k); });
      const Error e = compare(download(p.c, p.c_elements()), expected);
      all = all && e.pass();
      const double tflops = p.flops() / ms / 1e9;
      if (!edge) fast_row.push_back({tflops, e.pass()});
      std::printf("%5dx%5dx%5d  %-15s %-5s %8.3f ms  %6.1f TFLOP/s  %.3f of cublas  rel L2 %.2e  max %.2e  %s\n", m, n,
                  k, v.name, edge ? "edge" : "fast", ms, tflops, cublas_ms / ms, e.l2, e.max,
                  e.pass() ? "PASS" : "FAIL");
    }
  if (fast_results) fast_results->push_back(fast_row);
  return all;
}

void measure_copy() {
  const size_t bytes = size_t(1) << 30;
  void *source, *target;
  CHECK_CUDA(cudaMalloc(&source, bytes));
  CHECK_CUDA(cudaMalloc(&target, bytes));
  CHECK_CUDA(cudaMemset(source, 1, bytes));
  const double ms = median_ms([&] { CHECK_CUDA(cudaMemcpyAsync(target, source, bytes, cudaMemcpyDeviceToDevice)); });
  // Bytes read plus bytes written, as bench/experiments/bandwidth_variants.cu counts its copies.
  std::printf("D2D cudaMemcpyAsync 1 GiB  %.3f ms  %.0f GB/s (read + write)\n", ms, 2.0 * bytes / ms / 1e6);
  CHECK_CUDA(cudaFree(source));
  CHECK_CUDA(cudaFree(target));
}
}  // namespace
