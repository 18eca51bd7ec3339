// stencil.cpp — a 1-D weighted stencil of run-time radius (up to 16) over 2^26 floats. Each
// block stages its elements and the halo on both sides in dynamic shared memory, whose size the
// contract fixes; each thread then reads its 2·radius + 1 neighbours from there.
#include <carbide/carbide.hpp>

#include "../common/sample_check.hpp"

#include <cstdint>
#include <limits>

namespace stencil {

constexpr unsigned kBlock = 256;
constexpr unsigned kMaxRadius = 16;
constexpr unsigned kTileBytes = (kBlock + 2 * kMaxRadius) * sizeof(float);

// out[i] = Σ_k weights[k] · in[i + k − radius], k = 0 … 2·radius, zero outside `in`.
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kBlock)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1), dynamic_shared = kTileBytes)
void stencil(carbide::span<const float> in, carbide::span<const float> weights, std::uint32_t radius,
             carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  // tile[j] = in[first − radius + j]; a radius past kMaxRadius overruns it, which a checked
  // build traps.
  auto tile = carbide::block::dynamic_shared<float>();
  const std::size_t first = std::size_t(carbide::thread::block_idx().x) * kBlock;
  const std::size_t own = first + lid.get();
  tile[lid] = own >= radius && own - radius < in.size() ? in[own - radius] : 0.f;
  if (lid.get() < 2 * radius) {
    const std::size_t beyond = own + kBlock - radius;  // the halo past the block's last element
    tile[lid.get() + kBlock] = beyond < in.size() ? in[beyond] : 0.f;
  }
  carbide::block::sync();
  if (float* element = out.get_mut(idx)) {
    float sum = 0.f;
    for (unsigned k = 0; k <= 2 * radius; ++k) sum += weights[k] * tile[lid.get() + k];
    *element = sum;
  }
}

}  // namespace stencil

int main(int argc, char** argv) {
  const bool small = sample::small_run(argc, argv);
  auto ctx = carbide::Context::create(0);
  auto stream = ctx.default_stream();
  const std::size_t n = (std::size_t(1) << (small ? 16 : 26)) + 100;
  const std::uint32_t radius = 4;
  const std::vector<float> in = sample::random_floats(n);
  const std::vector<float> weights = sample::random_floats(2 * radius + 1);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream, in);
  auto weights_dev = carbide::DeviceBuffer<float>::from_host(stream, weights);
  auto out_dev = carbide::DeviceBuffer<float>::from_host(
      stream, std::vector<float>(n, std::numeric_limits<float>::quiet_NaN()));
  auto module = stencil::load(ctx);
  auto prepared = module.prepare_stencil(
      carbide::LaunchConfig1D(carbide::div_ceil(n, stencil::kBlock), stencil::kBlock, stencil::kTileBytes));
  module.stencil(stream, prepared, in_dev, weights_dev, radius, out_dev);

  std::vector<double> expected(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k <= 2 * radius; ++k)
      if (i + k >= radius && i + k - radius < n) expected[i] += double(weights[k]) * in[i + k - radius];
  return sample::verdict("radius-4 stencil with a partial last block",
                         sample::relative_error(out_dev.to_host_vec(stream), expected), 1e-6);
}
