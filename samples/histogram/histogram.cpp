// histogram.cpp — 256-bin histogram of 2^28 bytes: each block counts into its own bins in shared
// memory with shared-memory atomics, then adds them to the global bins, one atomic per bin.
// Bytes arrive packed four to a 32-bit word, as they sit in memory.
#include <carbide/carbide.hpp>

#include "../common/sample_check.hpp"

#include <cstdint>

namespace histogram {

constexpr unsigned kBins = 256;
constexpr unsigned kBlock = kBins;  // one bin per thread to clear and to publish

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kBlock)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void histogram(carbide::span<const std::uint32_t> words, carbide::atomic_span<unsigned> bins) {
  auto lid = carbide::thread::local_index();
  auto counts = carbide::block::shared<unsigned, kBins>();
  counts[lid] = 0;
  carbide::block::sync();
  for (auto&& w : carbide::thread::grid_stride(words)) {
    const std::uint32_t packed = words[w.get()];
    for (unsigned byte = 0; byte < 4; ++byte) counts.fetch_add((packed >> (8 * byte)) & 0xffu, 1u);
  }
  carbide::block::sync();
  if (const unsigned mine = counts[lid]) bins.fetch_add(lid.get(), mine);
}

}  // namespace histogram

int main(int argc, char** argv) try {
  auto ctx = carbide::Context::create_default();  // GPU 0, else the CPU
  const bool small = sample::small_run(argc, argv, ctx);
  auto stream = ctx.default_stream();
  const std::size_t words = std::size_t(1) << (small ? 16 : 26);
  std::vector<std::uint32_t> data(words);
  // Skewed bytes (a binomial-like sum), so that some bins are hot, as in real images.
  std::uniform_int_distribution<unsigned> nibble(0, 127);
  for (std::uint32_t& word : data)
    for (unsigned byte = 0; byte < 4; ++byte)
      word |= std::uint32_t(nibble(sample::generator()) + nibble(sample::generator())) << (8 * byte);

  auto data_dev = carbide::DeviceBuffer<std::uint32_t>::from_host(stream, data);
  auto bins_dev = carbide::DeviceBuffer<unsigned>::zeroed(stream, histogram::kBins);
  auto module = histogram::load(ctx);
  auto prepared = module.prepare_histogram(carbide::LaunchConfig1D(small ? 16 : 132 * 8, histogram::kBlock));
  module.histogram(stream, prepared, data_dev, bins_dev);

  std::vector<double> expected(histogram::kBins, 0.0);
  for (std::uint32_t word : data)
    for (unsigned byte = 0; byte < 4; ++byte) expected[(word >> (8 * byte)) & 0xffu] += 1;
  return sample::verdict("256-bin histogram",
                         sample::relative_error(bins_dev.to_host_vec(stream), expected), 0.0);
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
