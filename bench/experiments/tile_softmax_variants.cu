// Experiment, not part of the build: why the translated tile softmax over 4096-float rows runs
// below its twin (0.87 of the copy rate in bench/results/2026-12-03-h200-session8.md). The
// translator's entry for samples/tile_softmax.cpp (B = 4096), as emitted (`emitted`), against
// variants that each change one thing, the SIMT sample's hand-written twin
// (samples/softmax/softmax_reference.cu) and a device-to-device copy, in interleaved rounds.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I runtime/include bench/experiments/tile_softmax_variants.cu \
//        samples/softmax/softmax_reference.cu -o /tmp/v && /tmp/v
#include <carbide/tile/device.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace reference {
void launch_softmax(const float* in, float* out, unsigned rows);
}

namespace ct = ::carbide::tile;
namespace ctd = ::carbide::tile::detail;

// THREADS, MIN_BLOCKS: the launch bounds; DIVIDE: the last statement, as written (e / sum) or
// with the row's reciprocal taken once (e * (1 / sum)).
#define SOFTMAX_ENTRY(NAME, THREADS, BOUNDS, RECIPROCAL)                                                \
  extern "C" __global__ void __launch_bounds__ BOUNDS NAME(ctd::out_arg<float, 2> y, ctd::in_arg<float, 2> x) { \
    using L0 = ctd::blocked<THREADS, 4>;                                                              \
    const auto y_coord = ctd::block_coord(y);                                                        \
    auto t = ctd::load<ct::shape<1, 4096>, L0>(x, y_coord, static_cast<float>(-INFINITY));          \
    auto e = ctd::exp((t - ctd::bcast<1>(ctd::reduce_max<1, 0>(t), t)));                            \
    if constexpr (RECIPROCAL)                                                                         \
      ctd::store(y, y_coord, (e * ctd::bcast<1>(1.0f / ctd::reduce_sum<1, 1>(e), e)));             \
    else                                                                                              \
      ctd::store(y, y_coord, (e / ctd::bcast<1>(ctd::reduce_sum<1, 1>(e), e)));                    \
  }

SOFTMAX_ENTRY(emitted, 256, (256, 5), false)
SOFTMAX_ENTRY(no_min_blocks, 256, (256), false)
SOFTMAX_ENTRY(reciprocal, 256, (256, 5), true)
SOFTMAX_ENTRY(threads512, 512, (512), false)
SOFTMAX_ENTRY(threads512_reciprocal, 512, (512, 4), true)
SOFTMAX_ENTRY(threads1024_reciprocal, 1024, (1024, 2), true)

namespace {

void check(cudaError_t result, const char* what) {
  if (result != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(result));
    std::exit(1);
  }
}

using Entry = void (*)(ctd::out_arg<float, 2>, ctd::in_arg<float, 2>);

struct Variant {
  const char* name;
  Entry entry;
  int threads;
};

}  // namespace

int main() {
  const int rows = 16384, cols = 4096;
  const std::size_t n = std::size_t(rows) * cols;
  std::vector<float> host(n);
  std::mt19937 generator(7);
  std::uniform_real_distribution<float> distribution(-8.f, 8.f);
  for (float& v : host) v = distribution(generator);
  float *x = nullptr, *y = nullptr, *copy = nullptr;
  check(cudaMalloc(&x, n * 4), "cudaMalloc");
  check(cudaMalloc(&y, n * 4), "cudaMalloc");
  check(cudaMalloc(&copy, n * 4), "cudaMalloc");
  check(cudaMemcpy(x, host.data(), n * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
  ctd::in_arg<float, 2> in{x, {rows, cols}, {cols, 1}, 1};
  ctd::out_arg<float, 2> out{y, {rows, cols}, {cols, 1}, {rows, 1}, 1};

  std::vector<double> expected(n);
  for (int r = 0; r < rows; r += 97) {
    double largest = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c) largest = std::max(largest, double(host[std::size_t(r) * cols + c]));
    for (int c = 0; c < cols; ++c) sum += std::exp(host[std::size_t(r) * cols + c] - largest);
    for (int c = 0; c < cols; ++c) expected[std::size_t(r) * cols + c] = std::exp(host[std::size_t(r) * cols + c] - largest) / sum;
  }
  const Variant variants[] = {{"emitted (256, 5), e / sum", emitted, 256},
                              {"256 threads, no min blocks", no_min_blocks, 256},
                              {"256 (256, 5), e * (1 / sum)", reciprocal, 256},
                              {"512 threads, e / sum", threads512, 512},
                              {"512 (512, 4), e * (1 / sum)", threads512_reciprocal, 512},
                              {"1024 (1024, 2), e * (1 / sum)", threads1024_reciprocal, 1024}};
  std::vector<float> result(n);
  for (const Variant& v : variants) {
    check(cudaMemset(y, 0xff, n * 4), "cudaMemset");
    v.entry<<<rows, v.threads>>>(out, in);
    check(cudaMemcpy(result.data(), y, n * 4, cudaMemcpyDeviceToHost), "result");
    double error = 0, norm = 0;
    for (int r = 0; r < rows; r += 97)
      for (int c = 0; c < cols; ++c) {
        const std::size_t i = std::size_t(r) * cols + c;
        error += (result[i] - expected[i]) * (result[i] - expected[i]);
        norm += expected[i] * expected[i];
      }
    std::printf("%-34s relative L2 %.2e %s\n", v.name, std::sqrt(error / norm), std::sqrt(error / norm) < 1e-5 ? "ok" : "FAILED");
  }

  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  constexpr int kKinds = 8, kRounds = 40;
  std::vector<float> times[kKinds];
  auto launch = [&](int kind) {
    if (kind < 6) variants[kind].entry<<<rows, variants[kind].threads>>>(out, in);
    else if (kind == 6) reference::launch_softmax(x, y, rows);
    else cudaMemcpyAsync(copy, x, n * 4, cudaMemcpyDeviceToDevice);
  };
  for (int kind = 0; kind < kKinds; ++kind)
    for (int i = 0; i < 5; ++i) launch(kind);
  for (int round = 0; round < kRounds; ++round)
    for (int kind = 0; kind < kKinds; ++kind) {
      cudaEventRecord(start);
      for (int i = 0; i < 10; ++i) launch(kind);
      cudaEventRecord(stop);
      cudaEventSynchronize(stop);
      float ms = 0;
      cudaEventElapsedTime(&ms, start, stop);
      times[kind].push_back(ms / 10);
    }
  check(cudaGetLastError(), "launches");
  double median[kKinds];
  for (int kind = 0; kind < kKinds; ++kind) {
    std::sort(times[kind].begin(), times[kind].end());
    median[kind] = times[kind][kRounds / 2];
  }
  const char* names[kKinds] = {variants[0].name, variants[1].name, variants[2].name, variants[3].name,
                               variants[4].name, variants[5].name, "twin (SIMT sample's, 512 threads)", "D2D copy"};
  std::printf("\n| kernel | ms | GB/s | / copy | / twin |\n| --- | ---: | ---: | ---: | ---: |\n");
  for (int kind = 0; kind < kKinds; ++kind)
    std::printf("| %s | %.4f | %.0f | %.3f | %.3f |\n", names[kind], median[kind], 2.0 * n * 4 / median[kind] / 1e6,
                median[7] / median[kind], median[6] / median[kind]);
  return 0;
}
