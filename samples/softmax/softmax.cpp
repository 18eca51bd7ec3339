// softmax.cpp — the softmax of each row of a 16384 × 4096 float matrix: one block per row, each
// thread owning eight consecutive columns (two 16-byte loads and stores), the row's maximum and
// sum through warp shuffles and one shared slot per warp.
#include <carbide/carbide.hpp>

#include "../common/sample_check.hpp"

#include <cmath>
#include <limits>

namespace softmax {

constexpr unsigned kBlock = 512;
constexpr int kChunk = 8;
constexpr unsigned kCols = kBlock * kChunk;  // a row is exactly one block's chunks
constexpr unsigned kWarps = kBlock / 32;

// Row r is block r; thread t of it owns columns [8t, 8t + 8), the chunk of its global index.
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kBlock)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void softmax(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto lane = carbide::thread::lane();
  const auto x = in.chunk<kChunk>(idx.get());

  float largest = x[0];
  for (int j = 1; j < kChunk; ++j) largest = std::fmax(largest, x[j]);
  for (unsigned mask = 16; mask > 0; mask >>= 1)
    largest = std::fmax(largest, carbide::warp::shfl_xor(largest, mask));
  auto warp_maxima = carbide::block::shared<float, kWarps>();
  if (lane.get() == 0) warp_maxima[lid.get() / 32] = largest;
  carbide::block::sync();
  for (unsigned w = 0; w < kWarps; ++w) largest = std::fmax(largest, warp_maxima[w]);

  carbide::vec<float, kChunk> e;
  float sum = 0.f;
  for (int j = 0; j < kChunk; ++j) {
    e[j] = std::exp(x[j] - largest);
    sum += e[j];
  }
  sum = carbide::warp::reduce_add(sum);
  auto warp_sums = carbide::block::shared<float, kWarps>();
  if (lane.get() == 0) warp_sums[lid.get() / 32] = sum;
  carbide::block::sync();
  float total = 0.f;
  for (unsigned w = 0; w < kWarps; ++w) total += warp_sums[w];

  if (auto mine = out.get_mut_chunk<kChunk>(idx)) {
    for (int j = 0; j < kChunk; ++j) e[j] /= total;
    mine.store(e);
  }
}

}  // namespace softmax

int main(int argc, char** argv) {
  const bool small = sample::small_run(argc, argv);
  auto ctx = carbide::Context::create(0);
  auto stream = ctx.default_stream();
  const std::size_t rows = small ? 64 : 16384, cols = softmax::kCols;
  const std::vector<float> in = sample::random_floats(rows * cols, -8.f, 8.f);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream, in);
  auto out_dev = carbide::DeviceBuffer<float>::from_host(
      stream, std::vector<float>(in.size(), std::numeric_limits<float>::quiet_NaN()));
  auto module = softmax::load(ctx);
  auto prepared = module.prepare_softmax(carbide::LaunchConfig1D(rows, softmax::kBlock));
  module.softmax(stream, prepared, in_dev, out_dev);

  std::vector<double> expected(in.size());
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = &in[r * cols];
    double largest = row[0], sum = 0;
    for (std::size_t c = 1; c < cols; ++c) largest = std::fmax(largest, row[c]);
    for (std::size_t c = 0; c < cols; ++c) sum += std::exp(double(row[c]) - largest);
    for (std::size_t c = 0; c < cols; ++c) expected[r * cols + c] = std::exp(double(row[c]) - largest) / sum;
  }
  return sample::verdict("row softmax of 4096-float rows",
                         sample::relative_error(out_dev.to_host_vec(stream), expected), 1e-5);
}
