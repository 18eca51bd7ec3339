// saxpy.cpp — out = a * x + y over 2^26 + 3 floats, four per thread in vector loads and stores,
// checked against a float64 CPU reference (the 3 make a partial last chunk).
#include <carbide/carbide.hpp>

#include "../common/sample_check.hpp"

#include <limits>

namespace saxpy {

constexpr unsigned kBlock = 256;
constexpr int kChunk = 4;  // floats per thread: one 16-byte load per input, one store

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kBlock)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void saxpy(float a, carbide::span<const float> x, carbide::span<const float> y,
           carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (auto mine = out.get_mut_chunk<kChunk>(idx)) {
    const auto xs = x.chunk<kChunk>(idx.get());
    const auto ys = y.chunk<kChunk>(idx.get());
    carbide::vec<float, kChunk> result;
    for (int j = 0; j < kChunk; ++j) result[j] = a * xs[j] + ys[j];
    mine.store(result);
  }
}

}  // namespace saxpy

int main(int argc, char** argv) try {
  auto ctx = carbide::Context::create_default();  // GPU 0, else the CPU
  const bool small = sample::small_run(argc, argv, ctx);
  auto stream = ctx.default_stream();
  const std::size_t n = (std::size_t(1) << (small ? 16 : 26)) + 3;
  const std::vector<float> x = sample::random_floats(n), y = sample::random_floats(n);
  const float a = sample::random_floats(1)[0];

  auto x_dev = carbide::DeviceBuffer<float>::from_host(stream, x);
  auto y_dev = carbide::DeviceBuffer<float>::from_host(stream, y);
  auto out_dev = carbide::DeviceBuffer<float>::from_host(
      stream, std::vector<float>(n, std::numeric_limits<float>::quiet_NaN()));
  auto module = saxpy::load(ctx);
  const std::size_t threads = carbide::div_ceil(n, std::size_t(saxpy::kChunk));
  auto prepared = module.prepare_saxpy(carbide::LaunchConfig1D(carbide::div_ceil(threads, saxpy::kBlock), saxpy::kBlock));
  module.saxpy(stream, prepared, a, x_dev, y_dev, out_dev);

  std::vector<double> expected(n);
  for (std::size_t i = 0; i < n; ++i) expected[i] = double(a) * x[i] + y[i];
  return sample::verdict("saxpy with a partial last chunk", sample::relative_error(out_dev.to_host_vec(stream), expected), 1e-6);
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
