// What every sample does around its kernel: fresh random inputs, a float64 CPU reference, a
// relative error against it, and one PASSED/FAILED line.
#pragma once

#include <carbide/runtime.hpp>

#include <cmath>
#include <cstdio>
#include <random>
#include <string_view>
#include <vector>

namespace sample {

// `--small`, or a run on the CPU: sizes a sanitizer or the CPU context gets through in seconds,
// with the same partial edges.
inline bool small_run(int argc, char** argv, const carbide::Context& context) {
  return context.is_cpu() || (argc > 1 && std::string_view(argv[1]) == "--small");
}

inline std::mt19937& generator() {
  static std::mt19937 engine(std::random_device{}());
  return engine;
}

inline std::vector<float> random_floats(std::size_t n, float low = -1.f, float high = 1.f) {
  std::uniform_real_distribution<float> distribution(low, high);
  std::vector<float> values(n);
  for (float& v : values) v = distribution(generator());
  return values;
}

// ‖result − expected‖₂ / ‖expected‖₂.
template <class Result>
double relative_error(const std::vector<Result>& result, const std::vector<double>& expected) {
  double error = 0, norm = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double difference = double(result[i]) - expected[i];
    error += difference * difference;
    norm += expected[i] * expected[i];
  }
  return norm > 0 ? std::sqrt(error / norm) : std::sqrt(error);
}

// The softmax of each row of a rows × cols row-major matrix, in float64.
inline std::vector<double> row_softmax(const std::vector<float>& in, std::size_t rows, std::size_t cols) {
  std::vector<double> expected(in.size());
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = &in[r * cols];
    double largest = row[0], sum = 0;
    for (std::size_t c = 1; c < cols; ++c) largest = std::fmax(largest, row[c]);
    for (std::size_t c = 0; c < cols; ++c) sum += std::exp(double(row[c]) - largest);
    for (std::size_t c = 0; c < cols; ++c) expected[r * cols + c] = std::exp(double(row[c]) - largest) / sum;
  }
  return expected;
}

// Prints the verdict; the process's exit status.
inline int verdict(const char* what, double relative, double tolerance) {
  if (!(relative <= tolerance)) {
    std::fprintf(stderr, "FAILED: %s: relative error %.3g (tolerance %.1g)\n", what, relative, tolerance);
    return 1;
  }
  std::printf("PASSED: %s, relative error %.3g\n", what, relative);
  return 0;
}

}  // namespace sample
