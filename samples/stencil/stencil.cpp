// stencil.cpp — a 1-D weighted stencil of radius 4 over 2^26 floats. Each thread computes four
// consecutive outputs. A block stages its 1024 elements and one 4-float chunk of halo on each
// side in shared memory with 16-byte loads; each thread then reads the three chunks around its
// own and stores its four results with one 16-byte store. The weights travel with the launch,
// as a kernel argument.
#include <carbide/carbide.hpp>

#include "../common/sample_check.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace stencil {

constexpr unsigned kBlock = 256;
constexpr unsigned kRadius = 4;  // one chunk: the halo on each side is one chunk
constexpr unsigned kTaps = 2 * kRadius + 1;
constexpr unsigned kChunk = 4;
constexpr unsigned kPerBlock = kBlock * kChunk;

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
  // tile[j] = chunk (first − 1 + j) of `in`: the left halo, the block's 256 chunks, the right halo.
  auto tile = carbide::block::shared<carbide::vec<float, kChunk>, kBlock + 2>();
  const std::size_t chunks = (in.size() + kChunk - 1) / kChunk;
  const std::size_t first = std::size_t(carbide::thread::block_idx().x) * kBlock;
  const carbide::vec<float, kChunk> zeros{};
  tile[lid.get() + 1] = first + lid.get() < chunks ? in.chunk<kChunk>(first + lid.get()) : zeros;
  if (lid.get() == 0) tile[0] = first > 0 ? in.chunk<kChunk>(first - 1) : zeros;
  if (lid.get() == 1) tile[kBlock + 1] = first + kBlock < chunks ? in.chunk<kChunk>(first + kBlock) : zeros;
  carbide::block::sync();
  if (auto mine = out.get_mut_chunk<kChunk>(idx)) {
    // around[j] = in[4·own − 4 + j]: this thread's chunk and one on each side.
    float around[3 * kChunk];
    for (unsigned c = 0; c < 3; ++c) {
      const carbide::vec<float, kChunk> part = tile[lid.get() + c];
      for (unsigned j = 0; j < kChunk; ++j) around[c * kChunk + j] = part[j];
    }
    carbide::vec<float, kChunk> result;
    for (unsigned i = 0; i < kChunk; ++i) {
      float sum = 0.f;
      for (unsigned k = 0; k < kTaps; ++k) sum += weights.tap[k] * around[i + k];
      result[i] = sum;
    }
    mine.store(result);
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
      carbide::LaunchConfig1D(carbide::div_ceil(n, stencil::kPerBlock), stencil::kBlock));
  module.stencil(stream, prepared, in_dev, weights, out_dev);

  const std::size_t radius = stencil::kRadius;
  std::vector<double> expected(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < stencil::kTaps; ++k)
      if (i + k >= radius && i + k - radius < n) expected[i] += double(taps[k]) * in[i + k - radius];
  return sample::verdict("radius-4 stencil with a partial last block",
                         sample::relative_error(out_dev.to_host_vec(stream), expected), 1e-6);
}
