// What carbide_bench's rows share: CUDA-event medians, the copy ceiling, result comparison and
// the row records the table prints.
#pragma once

#include <carbide/runtime.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace bench {

inline void check(cudaError_t result, const char* what) {
  if (result != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(result));
    std::exit(1);
  }
}

// Median device milliseconds per launch of each of `launches`: each sample times `batch`
// back-to-back launches between two events, so the launches queue up and host-side launch cost
// (reported apart, by host_us_per_launch) does not leave the GPU idle inside the measurement.
// The versions take turns, one batch each a round, so that a drift of the clocks over the run
// falls on all of them alike instead of on whichever ran last.
inline std::vector<double> median_ms_each(const std::vector<std::function<void()>>& launches, int warmup = 10,
                                          int samples = 30, int batch = 10) {
  for (const auto& launch : launches)
    for (int i = 0; i < warmup; ++i) launch();
  check(cudaDeviceSynchronize(), "warm-up");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<std::vector<float>> times(launches.size());
  for (int i = 0; i < samples; ++i)
    for (std::size_t v = 0; v < launches.size(); ++v) {
      check(cudaEventRecord(start, nullptr), "cudaEventRecord");
      for (int j = 0; j < batch; ++j) launches[v]();
      check(cudaEventRecord(stop, nullptr), "cudaEventRecord");
      check(cudaEventSynchronize(stop), "cudaEventSynchronize");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
      times[v].push_back(ms / batch);
    }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::vector<double> medians;
  for (std::vector<float>& t : times) {
    std::sort(t.begin(), t.end());
    medians.push_back(t[t.size() / 2]);
  }
  return medians;
}

// Host microseconds to issue one launch, while the GPU is kept busy by the earlier ones.
inline double host_us_per_launch(const std::function<void()>& launch, int launches = 200) {
  check(cudaDeviceSynchronize(), "sync");
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < launches; ++i) launch();
  const auto stop = std::chrono::steady_clock::now();
  check(cudaDeviceSynchronize(), "sync");
  return std::chrono::duration<double, std::micro>(stop - start).count() / launches;
}

template <class T>
T* raw(const carbide::DeviceBuffer<T>& buffer) {
  return reinterpret_cast<T*>(buffer.device_ptr());
}

inline std::vector<float> random_floats(std::size_t n, std::mt19937& generator) {
  std::uniform_real_distribution<float> distribution(-1.f, 1.f);
  std::vector<float> values(n);
  for (float& v : values) v = distribution(generator);
  return values;
}

// A device-to-device copy of `bytes / 2` bytes, which moves `bytes` (read + write): the
// memory-bound ceiling, timed in turn with the versions it bounds.
class CopyCeiling {
 public:
  explicit CopyCeiling(double bytes) : half_(std::size_t(bytes / 2)) {
    check(cudaMalloc(&src_, half_), "cudaMalloc");
    check(cudaMalloc(&dst_, half_), "cudaMalloc");
    check(cudaMemset(src_, 1, half_), "cudaMemset");
  }
  CopyCeiling(const CopyCeiling&) = delete;
  CopyCeiling& operator=(const CopyCeiling&) = delete;
  ~CopyCeiling() {
    cudaFree(src_);
    cudaFree(dst_);
  }
  void operator()() const { cudaMemcpyAsync(dst_, src_, half_, cudaMemcpyDeviceToDevice, nullptr); }

 private:
  std::size_t half_;
  void *src_ = nullptr, *dst_ = nullptr;
};

inline double relative_difference(const std::vector<float>& result, const std::vector<float>& reference) {
  double error = 0, norm = 0;
  for (std::size_t i = 0; i < result.size(); ++i) {
    error += (double(result[i]) - reference[i]) * (double(result[i]) - reference[i]);
    norm += double(reference[i]) * reference[i];
  }
  return std::sqrt(error / norm);
}

struct Row {
  std::string name;
  double bytes;
  double carbide_ms, twin_ms, copy_ms;
  double carbide_host_us, twin_host_us;
  double agreement = -1;  // relative L2 difference of the two outputs; < 0 when not compared
};

// `output` reads back the buffer both versions write: after one launch of each, the results
// must agree (kernels that accumulate across launches pass none).
inline Row measure(std::string name, double bytes, const std::function<void()>& carbide,
            const std::function<void()>& twin,
            const std::function<std::vector<float>()>& output = nullptr) {
  const CopyCeiling copy(bytes);
  const std::vector<double> ms = median_ms_each({carbide, twin, [&] { copy(); }});
  Row row{std::move(name), bytes, ms[0], ms[1], ms[2], 0, 0};
  if (output) {
    carbide();
    const std::vector<float> from_carbide = output();
    twin();
    row.agreement = relative_difference(from_carbide, output());
  }
  row.carbide_host_us = host_us_per_launch(carbide);
  row.twin_host_us = host_us_per_launch(twin);
  return row;
}

// A compute-bound row: the ceiling is cuBLAS on the same matrices, and the three results agree.
struct GemmRow {
  std::string name;
  double flops;
  double carbide_ms, twin_ms, cublas_ms;
  double carbide_vs_cublas;  // relative L2 difference of the results
};

// A fused tile kernel against the same computation as several simpler tile kernels (the fused
// one must never be slower), and the two results' agreement.
struct FusedRow {
  std::string name;
  double flops;
  double fused_ms, unfused_ms;
  double difference;  // relative L2 difference of the results
};

}  // namespace bench
