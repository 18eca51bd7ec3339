// What the single-file experiments share: a CUDA error check, and timing several versions of a
// kernel interleaved (each round times a batch of 10 launches of every version in turn, so that
// clocks and caches drift alike for all), reported as a table of medians against the first.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#define CHECK_CUDA(call)                                                                            \
  do {                                                                                              \
    const cudaError_t e = (call);                                                                   \
    if (e != cudaSuccess) {                                                                         \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e));     \
      std::exit(1);                                                                                 \
    }                                                                                               \
  } while (0)

struct TimedKernel {
  std::string name;
  std::function<void()> launch;
  std::vector<float> ms;
};

// Times every kernel over `rounds` interleaved rounds and prints `| title | median ms | of the
// first |` for each.
inline void time_interleaved(std::vector<TimedKernel>& kernels, const char* title, int rounds = 60) {
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  for (TimedKernel& k : kernels)
    for (int i = 0; i < 10; ++i) k.launch();
  for (int round = 0; round < rounds; ++round)
    for (TimedKernel& k : kernels) {
      CHECK_CUDA(cudaEventRecord(start));
      for (int i = 0; i < 10; ++i) k.launch();
      CHECK_CUDA(cudaEventRecord(stop));
      CHECK_CUDA(cudaEventSynchronize(stop));
      float ms = 0;
      CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
      k.ms.push_back(ms / 10);
    }
  CHECK_CUDA(cudaGetLastError());
  auto median = [](std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const float first = median(kernels[0].ms);
  std::printf("\n| %s | median ms | of the first |\n| --- | ---: | ---: |\n", title);
  for (const TimedKernel& k : kernels)
    std::printf("| %s | %.4f | %.3f |\n", k.name.c_str(), median(k.ms), first / median(k.ms));
}
