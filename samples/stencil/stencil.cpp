// stencil.cpp — a 1-D weighted stencil of radius 4 over 2^26 floats. Each block stages its
// elements and the halo on both sides in shared memory; each thread then reads its nine
// neighbours from there. The weights travel with the launch, as a kernel argument.
#include <carbide/carbide.hpp>

#include "../common/sample_check.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace stencil {

constexpr unsigned kBlock = 256;
constexpr unsigned kRadius = 4;
constexpr unsigned kTaps = 2 * kRadius + 1;

// The weights travel as one kernel argument (the constant bank), not as a buffer.
struct Weights {
  float tap[kTaps];
};
// out[i] = Σ_k weights.tap[k] · in[i + k − kRadius], k = 0 … 2·kRadius, zero outside `in`.
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kBlock)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void stencil(carbide::span<const float> in, Weights weights, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  // tile[j] = in[first − kRadius + j]
  auto tile = carbide::block::shared<float, kBlock + 2 * kRadius>();
  const std::size_t first = std::size_t(carbide::thread::block_idx().x) * kBlock;
  const std::size_t own = first + lid.get();
  tile[lid] = own >= kRadius && own - kRadius < in.size() ? in[own - kRadius] : 0.f;
  if (lid.get() < 2 * kRadius) {
    const std::size_t beyond = own + kBlock - kRadius;  // the halo past the block's last element
    tile[lid.get() + kBlock] = beyond < in.size() ? in[beyond] : 0.f;
  }
  carbide::block::sync();
  if (float* element = out.get_mut(idx)) {
    float sum = 0.f;
    for (unsigned k = 0; k < kTaps; ++k) sum += weights.tap[k] * tile[lid.get() + k];
    *element = sum;
  }
}

}  // namespace stencil

int main(int argc, char** argv) {
  const bool small = sample::small_run(argc, argv);
  auto ctx = carbide::Context::create(0);
  auto stream = ctx.default_stream();
  const std::size_t n = (std::size_t(1) << (small ? 16 : 26)) + 100;
  const std::vector<float> in = sample::random_floats(n);
  const std::vector<float> taps = sample::random_floats(stencil::kTaps);
  stencil::Weights weights{};
  std::copy(taps.begin(), taps.end(), weights.tap);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream, in);
  auto out_dev = carbide::DeviceBuffer<float>::from_host(
      stream, std::vector<float>(n, std::numeric_limits<float>::quiet_NaN()));
  auto module = stencil::load(ctx);
  auto prepared = module.prepare_stencil(
      carbide::LaunchConfig1D(carbide::div_ceil(n, stencil::kBlock), stencil::kBlock));
  module.stencil(stream, prepared, in_dev, weights, out_dev);

  const std::size_t radius = stencil::kRadius;
  std::vector<double> expected(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < stencil::kTaps; ++k)
      if (i + k >= radius && i + k - radius < n) expected[i] += double(taps[k]) * in[i + k - radius];
  return sample::verdict("radius-4 stencil with a partial last block",
                         sample::relative_error(out_dev.to_host_vec(stream), expected), 1e-6);
}
