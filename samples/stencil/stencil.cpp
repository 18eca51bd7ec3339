// stencil.cpp — a 1-D weighted stencil of radius 4 over 2^26 floats. Each thread computes two
// pieces of four consecutive outputs, a block's width apart (pieces t and t + 256 of its block's
// 512), so that every 16-byte load and store of a warp covers 512 contiguous bytes. A block
// stages its 2048 elements and one 4-float chunk of halo on each side in shared memory; each
// thread then reads the three chunks around each of its pieces. The weights travel with the
// launch, as a kernel argument.
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
constexpr unsigned kPieces = 2;                       // per thread, kBlock chunks apart
constexpr unsigned kChunksPerBlock = kBlock * kPieces;  // 512
constexpr unsigned kPerBlock = kChunksPerBlock * kChunk;

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
  // tile[j] = chunk (first − 1 + j) of `in`: the left halo, the block's 512 chunks, the right halo.
  auto tile = carbide::block::shared<carbide::vec<float, kChunk>, kChunksPerBlock + 2>();
  const std::size_t chunks = (in.size() + kChunk - 1) / kChunk;
  const std::size_t first = std::size_t(carbide::thread::block_idx().x) * kChunksPerBlock;
  const carbide::vec<float, kChunk> zeros{};
  for (unsigned j = 0; j < kPieces; ++j) {
    const std::size_t chunk = first + j * kBlock + lid.get();
    tile[j * kBlock + lid.get() + 1] = chunk < chunks ? in.chunk<kChunk>(chunk) : zeros;
  }
  if (lid.get() == 0) tile[0] = first > 0 ? in.chunk<kChunk>(first - 1) : zeros;
  if (lid.get() == 1)
    tile[kChunksPerBlock + 1] = first + kChunksPerBlock < chunks ? in.chunk<kChunk>(first + kChunksPerBlock) : zeros;
  carbide::block::sync();
  // Piece j of this thread is chunk first + j·256 + lid, tile[j·256 + lid + 1].
  if (auto mine = out.get_mut_strided_chunks<kChunk, kPieces>(idx)) {
    for (unsigned j = 0; j < kPieces; ++j) {
      // around[m] = in[4·chunk − 4 + m]: the piece's chunk and one on each side.
      float around[3 * kChunk];
      for (unsigned c = 0; c < 3; ++c) {
        const carbide::vec<float, kChunk> part = tile[j * kBlock + lid.get() + c];
        for (unsigned m = 0; m < kChunk; ++m) around[c * kChunk + m] = part[m];
      }
      carbide::vec<float, kChunk> result;
      for (unsigned i = 0; i < kChunk; ++i) {
        float sum = 0.f;
        for (unsigned k = 0; k < kTaps; ++k) sum += weights.tap[k] * around[i + k];
        result[i] = sum;
      }
      mine.store(int(j), result);
    }
  }
}

}  // namespace stencil

int main(int argc, char** argv) try {
  auto ctx = carbide::Context::create_default();  // GPU 0, else the CPU
  const bool small = sample::small_run(argc, argv, ctx);
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
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
