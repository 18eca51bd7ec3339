#pragma once

#include <carbide/carbide.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

// Skips the calling test, saying why, where no CUDA device can be used.
#define CARBIDE_REQUIRE_DEVICE()                                                  \
  do {                                                                            \
    if (carbide::Context::device_count() == 0)                                    \
      GTEST_SKIP() << "no CUDA device: " << carbide::Context::unavailable_reason(); \
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
