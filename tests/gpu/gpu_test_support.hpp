#pragma once

#include <carbide/carbide.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <random>
#include <string_view>
#include <vector>

// The backend a run of these tests uses. ctest runs each binary twice: as cpu.* with
// CARBIDE_DEVICE=cpu, on every machine (CI has no GPU), and as gpu.*, which skips where no CUDA
// device can be used (tests/gpu/CMakeLists.txt).
inline bool testing_on_cpu() {
  const char* device = std::getenv("CARBIDE_DEVICE");
  return device != nullptr && std::string_view(device) == "cpu";
}

// The context of the backend under test: the CPU's, or GPU 0.
inline carbide::Context test_context() {
  return testing_on_cpu() ? carbide::Context::create_cpu() : carbide::Context::create(0);
}

// Skips the calling test, saying why, where the backend under test is a GPU and none can be used.
#define CARBIDE_REQUIRE_DEVICE()                                                    \
  do {                                                                              \
    if (!testing_on_cpu() && carbide::Context::device_count() == 0)                 \
      GTEST_SKIP() << "no CUDA device: " << carbide::Context::unavailable_reason(); \
  } while (false)

// Skips the calling test on the CPU backend, saying why: what it tests is the GPU's alone (its
// PTX, Hopper's instructions, its timings).
#define CARBIDE_REQUIRE_GPU(why)                                                  \
  do {                                                                            \
    if (testing_on_cpu()) GTEST_SKIP() << "GPU only: " << (why);                  \
    CARBIDE_REQUIRE_DEVICE();                                                     \
  } while (false)

// n values uniform in [-1, 1), fresh for every run.
inline std::vector<float> random_floats(std::size_t n) {
  std::mt19937 generator(std::random_device{}());
  std::uniform_real_distribution<float> distribution(-1.f, 1.f);
  std::vector<float> values(n);
  for (float& v : values) v = distribution(generator);
  return values;
}

// n NaNs: an output element a kernel never wrote stays visibly unwritten.
inline std::vector<float> poisoned(std::size_t n) {
  return std::vector<float>(n, std::numeric_limits<float>::quiet_NaN());
}
