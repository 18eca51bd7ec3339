// saxpy.cpp — y_out = a * x + y over 2^26 floats, checked against a float64 CPU reference.
#include <carbide/carbide.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

namespace saxpy {

constexpr unsigned kBlock = 256;

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kBlock)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void saxpy(float a, carbide::span<const float> x, carbide::span<const float> y,
           carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = a * x[idx.get()] + y[idx.get()];
}

}  // namespace saxpy

int main() {
  auto ctx = carbide::Context::create(0);
  auto stream = ctx.default_stream();
  constexpr std::size_t n = std::size_t(1) << 26;
  std::mt19937 generator(std::random_device{}());
  std::uniform_real_distribution<float> distribution(-1.f, 1.f);
  std::vector<float> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = distribution(generator), y[i] = distribution(generator);
  const float a = distribution(generator);

  auto x_dev = carbide::DeviceBuffer<float>::from_host(stream, x);
  auto y_dev = carbide::DeviceBuffer<float>::from_host(stream, y);
  auto out_dev = carbide::DeviceBuffer<float>::from_host(
      stream, std::vector<float>(n, std::numeric_limits<float>::quiet_NaN()));
  auto module = saxpy::load(ctx);
  auto prepared = module.prepare_saxpy(carbide::LaunchConfig1D(carbide::div_ceil(n, saxpy::kBlock), saxpy::kBlock));
  module.saxpy(stream, prepared, a, x_dev, y_dev, out_dev);
  const auto out = out_dev.to_host_vec(stream);

  double error = 0, norm = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double expected = double(a) * x[i] + y[i];
    error += (out[i] - expected) * (out[i] - expected);
    norm += expected * expected;
  }
  const double relative = std::sqrt(error / norm);
  if (!(relative < 1e-6)) {
    std::fprintf(stderr, "FAILED: relative error %.3g\n", relative);
    return 1;
  }
  std::printf("PASSED: saxpy over %zu elements, relative error %.3g\n", n, relative);
}
