// scan.cpp — the inclusive prefix sum of 2^26 floats, reduce-then-scan: each block of 256
// threads × 8 floats sums its 2048 elements; the block sums are scanned the same way, level by
// level; then each block scans its elements again, starting from the sum of the blocks before
// it. The input is read twice and the output written once.
#include <carbide/carbide.hpp>

#include "../common/sample_check.hpp"

#include <limits>

namespace scan {

constexpr unsigned kBlock = 256;
constexpr int kChunk = 8;
constexpr unsigned kPerBlock = kBlock * kChunk;
constexpr unsigned kWarps = kBlock / 32;

// totals[b] = the sum of block b's elements.
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kBlock)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void block_totals(carbide::span<const float> in, carbide::disjoint_span<float> totals) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto lane = carbide::thread::lane();
  // Threads past the end (the last block of a level) hold zeros: a chunk starting past the end traps.
  const auto x = idx.get() * kChunk < in.size() ? in.chunk<kChunk>(idx.get()) : carbide::vec<float, kChunk>{};
  float sum = 0.f;
  for (int j = 0; j < kChunk; ++j) sum += x[j];
  sum = carbide::warp::reduce_add(sum);
  auto warp_sums = carbide::block::shared<float, kWarps>();
  if (lane.get() == 0) warp_sums[lid.get() / 32] = sum;
  carbide::block::sync();
  // The leader form: block b's total is element b, written by its thread 0.
  if (float* total = totals.get_mut_block(lid)) {
    *total = 0.f;
    for (unsigned w = 0; w < kWarps; ++w) *total += warp_sums[w];
  }
}

// out = the inclusive scan of `in`, block b starting from offsets[b − 1] (the inclusive scan
// of the block totals; empty when there is one block).
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kBlock)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void scan_blocks(carbide::span<const float> in, carbide::span<const float> offsets,
                 carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto lane = carbide::thread::lane();
  auto x = idx.get() * kChunk < in.size() ? in.chunk<kChunk>(idx.get()) : carbide::vec<float, kChunk>{};
  for (int j = 1; j < kChunk; ++j) x[j] += x[j - 1];
  const float own_total = x[kChunk - 1];
  const float through_me = carbide::warp::inclusive_scan_add(own_total);
  auto warp_sums = carbide::block::shared<float, kWarps>();
  if (lane.get() == 31) warp_sums[lid.get() / 32] = through_me;
  carbide::block::sync();
  const unsigned block = carbide::thread::block_idx().x;
  float before = (block > 0 ? offsets[block - 1] : 0.f) + (through_me - own_total);
  for (unsigned w = 0; w < lid.get() / 32; ++w) before += warp_sums[w];
  if (auto mine = out.get_mut_chunk<kChunk>(idx)) {
    for (int j = 0; j < kChunk; ++j) x[j] += before;
    mine.store(x);
  }
}

}  // namespace scan

namespace {

// The inclusive scan of `in` into `out`, through as many levels of block totals as it takes.
void inclusive_scan(scan::Module& module, const carbide::Stream& stream,
                    const carbide::DeviceBuffer<float>& in, carbide::DeviceBuffer<float>& out) {
  const std::size_t blocks = carbide::div_ceil(in.size(), std::size_t(scan::kPerBlock));
  const carbide::LaunchConfig1D config(blocks, scan::kBlock);
  if (blocks == 1) {  // no blocks before it: the offsets are never read (any read view will do)
    module.scan_blocks(stream, module.prepare_scan_blocks(config), in, in, out);
    return;
  }
  auto totals = carbide::DeviceBuffer<float>::zeroed(stream, blocks);
  module.block_totals(stream, module.prepare_block_totals(config), in, totals);
  auto offsets = carbide::DeviceBuffer<float>::zeroed(stream, blocks);
  inclusive_scan(module, stream, totals, offsets);
  module.scan_blocks(stream, module.prepare_scan_blocks(config), in, offsets, out);
}

}  // namespace

int main(int argc, char** argv) try {
  auto ctx = carbide::Context::create_default();  // GPU 0, else the CPU
  const bool small = sample::small_run(argc, argv, ctx);
  auto stream = ctx.default_stream();
  const std::size_t n = (std::size_t(1) << (small ? 16 : 26)) + 1000;
  const std::vector<float> in = sample::random_floats(n, 0.f, 1.f);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream, in);
  auto out_dev = carbide::DeviceBuffer<float>::from_host(
      stream, std::vector<float>(n, std::numeric_limits<float>::quiet_NaN()));
  auto module = scan::load(ctx);
  inclusive_scan(module, stream, in_dev, out_dev);

  std::vector<double> expected(n);
  double running = 0;
  for (std::size_t i = 0; i < n; ++i) expected[i] = running += in[i];
  return sample::verdict("inclusive scan with a partial last block",
                         sample::relative_error(out_dev.to_host_vec(stream), expected), 1e-5);
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
