// Kernels' CPU forms launched through a module on the CPU context (DESIGN §11): the plain loop,
// barriers over shared memory, every warp collective, atomics, 2-D tiles, dynamic shared memory
// and a tile kernel, each checked against the same computation on the host, with the run-time
// checks on (which must find nothing) and off.
#include "cpu_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace {

using namespace cpu_tests;

std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> distribution(0.f, 1.f);
  std::vector<float> values(n);
  for (float& v : values) v = distribution(generator);
  return values;
}

class CpuLaunch : public testing::TestWithParam<const char*> {
 protected:
  ScopedEnvironment checks_{"CARBIDE_CPU_CHECKS", GetParam()};
  carbide::Context ctx_ = carbide::Context::create_cpu();
  carbide::Stream stream_ = ctx_.create_stream();
  carbide::detail::LoadedModule module_ = load(ctx_);
};

TEST_P(CpuLaunch, VecaddComputesEveryElement) {
  const std::size_t n = 100'003;
  const auto a = random_floats(n, 1), b = random_floats(n, 2);
  auto a_dev = carbide::DeviceBuffer<float>::from_host(stream_, a);
  auto b_dev = carbide::DeviceBuffer<float>::from_host(stream_, b);
  auto c_dev = carbide::DeviceBuffer<float>::zeroed(stream_, n);
  const auto config = prepare(module_, kVecadd, carbide::LaunchConfig1D(carbide::div_ceil(n, 256), 256), {256, 1, 1});
  launch(module_, kVecadd, stream_, config, carbide::detail::read_view(a_dev), carbide::detail::read_view(b_dev),
         carbide::detail::exclusive_view(c_dev));
  const auto c = c_dev.to_host_vec(stream_);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += c[i] != a[i] + b[i];
  EXPECT_EQ(wrong, 0u);
}

TEST_P(CpuLaunch, TheContractIsCheckedAgainstTheCpuLimits) {
  EXPECT_THROW(prepare(module_, kVecadd, carbide::LaunchConfig1D(4, 128), {256, 1, 1}), carbide::LaunchContractError);
  EXPECT_THROW(prepare(module_, kVecadd, carbide::LaunchConfig1D(1, 2048), {2048, 1, 1}), carbide::LaunchContractError);
  EXPECT_THROW(prepare(module_, kVecadd, carbide::LaunchConfig1D(std::uint64_t(1) << 31, 256), {256, 1, 1}),
               carbide::LaunchContractError);
}

TEST_P(CpuLaunch, SharedTreeReductionMeetsAtEveryBarrier) {
  const std::size_t blocks = 37, n = blocks * 256 - 100;  // the last block partly past the end
  const auto in = random_floats(n, 3);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream_, in);
  auto partial_dev = carbide::DeviceBuffer<float>::zeroed(stream_, blocks);
  auto share_dev = carbide::DeviceBuffer<float>::zeroed(stream_, n);
  launch(module_, kReduceShared, stream_, prepare(module_, kReduceShared, carbide::LaunchConfig1D(blocks, 256), {256, 1, 1}),
         carbide::detail::read_view(in_dev), carbide::detail::exclusive_view(partial_dev),
         carbide::detail::exclusive_view(share_dev));
  const auto partial = partial_dev.to_host_vec(stream_);
  const auto share = share_dev.to_host_vec(stream_);
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t first = b * 256, last = std::min(n, first + 256);
    const double sum = std::accumulate(in.begin() + first, in.begin() + last, 0.0);
    EXPECT_NEAR(partial[b], sum, 1e-3) << "block " << b;
    EXPECT_NEAR(share[first], in[first] / sum, 1e-5) << "block " << b;
  }
}

TEST_P(CpuLaunch, WarpCollectivesExchangeAcrossTheLanes) {
  const std::size_t n = 2 * 96;  // blocks of 96: three full warps each
  const auto in = random_floats(n, 4);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream_, in);
  auto total_dev = carbide::DeviceBuffer<float>::zeroed(stream_, n);
  auto down_dev = carbide::DeviceBuffer<float>::zeroed(stream_, n);
  auto scan_dev = carbide::DeviceBuffer<float>::zeroed(stream_, n);
  auto votes_dev = carbide::DeviceBuffer<unsigned>::zeroed(stream_, n);
  launch(module_, kWarpSums, stream_, prepare(module_, kWarpSums, carbide::LaunchConfig1D(2, 96), {96, 1, 1}),
         carbide::detail::read_view(in_dev), carbide::detail::exclusive_view(total_dev),
         carbide::detail::exclusive_view(down_dev), carbide::detail::exclusive_view(scan_dev),
         carbide::detail::exclusive_view(votes_dev));
  const auto total = total_dev.to_host_vec(stream_), down = down_dev.to_host_vec(stream_),
             scan = scan_dev.to_host_vec(stream_);
  const auto votes = votes_dev.to_host_vec(stream_);
  for (std::size_t warp = 0; warp < n / 32; ++warp) {
    const std::size_t first = warp * 32;
    const double sum = std::accumulate(in.begin() + first, in.begin() + first + 32, 0.0);
    unsigned ballot = 0;
    for (unsigned lane = 0; lane < 32; ++lane) ballot |= unsigned(in[first + lane] > 0.5f) << lane;
    const unsigned any = ballot != 0 ? 1u << 31 : 0, all = ballot == ~0u ? 1u << 30 : 0;
    double prefix = 0;
    for (unsigned lane = 0; lane < 32; ++lane) {
      prefix += in[first + lane];
      EXPECT_NEAR(total[first + lane], sum, 1e-4) << "lane " << lane << " of warp " << warp;
      EXPECT_NEAR(scan[first + lane], prefix, 1e-4) << "lane " << lane << " of warp " << warp;
      EXPECT_EQ(votes[first + lane], ballot ^ any ^ all) << "lane " << lane << " of warp " << warp;
    }
    EXPECT_NEAR(down[first], sum, 1e-4) << "lane 0 of warp " << warp;  // shfl_down's sum lands in lane 0
  }
}

TEST_P(CpuLaunch, HistogramAtomicsCountEveryValue) {
  const std::size_t n = 50'000;
  std::vector<unsigned> values(n);
  std::mt19937 generator(5);
  for (unsigned& v : values) v = generator() % 1000;
  values[0] = values[1] = values[2] = 7;  // and many threads to one bin
  auto values_dev = carbide::DeviceBuffer<unsigned>::from_host(stream_, values);
  auto bins_dev = carbide::DeviceBuffer<unsigned>::zeroed(stream_, cpu_kernels::kHistogramBins);
  launch(module_, kHistogram, stream_, prepare(module_, kHistogram, carbide::LaunchConfig1D(16, 256), {256, 1, 1}),
         carbide::detail::read_view(values_dev), carbide::detail::atomic_view(bins_dev));
  std::vector<unsigned> expected(cpu_kernels::kHistogramBins);
  for (unsigned v : values) ++expected[v % cpu_kernels::kHistogramBins];
  EXPECT_EQ(bins_dev.to_host_vec(stream_), expected);
}

TEST_P(CpuLaunch, TransposeThroughAPaddedSharedTile) {
  const std::size_t rows = 70, cols = 45;  // partial tiles on both edges
  const auto in = random_floats(rows * cols, 6);
  auto in_dev = carbide::DeviceBuffer2D<float>::from_host(stream_, in, rows, cols);
  auto out_dev = carbide::DeviceBuffer2D<float>::zeroed(stream_, cols, rows);
  const carbide::LaunchConfig2D config({carbide::div_ceil(cols, 32), carbide::div_ceil(rows, 32), 1}, {32, 32, 1});
  carbide::validate_transposed_output("cpu_kernels::transpose", {"out", cols, rows, 1, 1}, config);
  launch(module_, kTranspose, stream_, prepare(module_, kTranspose, config, {32, 32, 1}),
         carbide::detail::read_view(in_dev), carbide::detail::exclusive_view(out_dev));
  const auto out = out_dev.to_host_vec(stream_);
  std::size_t wrong = 0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) wrong += out[c * rows + r] != in[r * cols + c];
  EXPECT_EQ(wrong, 0u);
}

TEST_P(CpuLaunch, NeighbouringSixteenBitElementsAreNoRace) {
  auto out_dev = carbide::DeviceBuffer<std::uint16_t>::zeroed(stream_, 512);
  launch(module_, kHalves, stream_, prepare(module_, kHalves, carbide::LaunchConfig1D(4, 128), {128, 1, 1}),
         carbide::detail::exclusive_view(out_dev));
  const auto out = out_dev.to_host_vec(stream_);
  for (std::size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], (i % 128 ^ 1) * 3) << i;
}

TEST_P(CpuLaunch, DynamicSharedMemoryHoldsWhatTheLaunchAskedFor) {
  const std::size_t n = 3 * 64;
  const auto in = random_floats(n, 7);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream_, in);
  auto out_dev = carbide::DeviceBuffer<float>::zeroed(stream_, n);
  const auto config = prepare(module_, kDynamicScale, carbide::LaunchConfig1D(3, 64, 64 * sizeof(float)), {64, 1, 1},
                              64 * sizeof(float));
  launch(module_, kDynamicScale, stream_, config, carbide::detail::read_view(in_dev),
         carbide::detail::exclusive_view(out_dev), 3.f);
  const auto out = out_dev.to_host_vec(stream_);
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(out[i], in[i / 64 * 64 + 63 - i % 64] * 3.f) << i;
}

TEST_P(CpuLaunch, TileKernelRunsEveryTileBlock) {
  const std::size_t n = 1000;
  const auto x = random_floats(n, 8);
  auto x_tensor = carbide::Tensor<float>::from_host(stream_, x, {n});
  auto y_partition = std::move(carbide::Tensor<float>::zeroed(stream_, {n})).partition(carbide::tile::shape<128>{});
  auto x_arg = carbide::detail::tile_input<1>("cpu_kernels::tile_double", "x", x_tensor);
  auto y_arg = carbide::detail::tile_output("cpu_kernels::tile_double", "y", y_partition);
  const std::uint64_t blocks =
      carbide::detail::tile_grid("cpu_kernels::tile_double", {carbide::detail::output_tiles("y", y_arg)});
  EXPECT_EQ(blocks, 8u);
  launch(module_, kTileDouble, stream_, carbide::LaunchConfig1D(blocks, 128), x_arg, y_arg);
  const auto y = std::move(y_partition).unpartition().to_host_vec(stream_);
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(y[i], 2 * x[i]) << i;
}

TEST_P(CpuLaunch, ChunksPiecesAndThe32BitWitness) {
  const std::size_t n = 1001;  // a partial last chunk
  const auto in = random_floats(n, 9);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream_, in);
  auto out1 = carbide::DeviceBuffer<float>::zeroed(stream_, n);
  auto out2 = carbide::DeviceBuffer<float>::zeroed(stream_, n);
  auto out3 = carbide::DeviceBuffer<float>::zeroed(stream_, 256);
  launch(module_, kChunks, stream_, carbide::LaunchConfig1D(4, 64), carbide::detail::read_view(in_dev),
         carbide::detail::exclusive_view(out1), carbide::detail::exclusive_view(out2), carbide::detail::exclusive_view(out3));
  const auto doubled = out1.to_host_vec(stream_), pieces = out2.to_host_vec(stream_), indexes = out3.to_host_vec(stream_);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(doubled[i], 2 * in[i]) << i;
    EXPECT_EQ(pieces[i], 2 * in[i]) << i;
  }
  for (std::size_t i = 0; i < indexes.size(); ++i) EXPECT_EQ(indexes[i], float(i)) << i;
}

TEST_P(CpuLaunch, ButterflyPairsAndRadixGroupsCoverEveryElement) {
  auto pairs = carbide::DeviceBuffer<float>::zeroed(stream_, 256);
  auto quads = carbide::DeviceBuffer<float>::zeroed(stream_, 256);
  launch(module_, kButterflies, stream_, carbide::LaunchConfig1D(1, 128), carbide::detail::exclusive_view(pairs),
         carbide::detail::exclusive_view(quads));
  const auto p = pairs.to_host_vec(stream_), q = quads.to_host_vec(stream_);
  for (std::size_t i = 0; i < 256; ++i) {
    EXPECT_EQ(p[i], float(i)) << i;
    EXPECT_EQ(q[i], float(i)) << i;
  }
}

TEST_P(CpuLaunch, BlockRegionsAndBlockStrideRows) {
  auto regions = carbide::DeviceBuffer<float>::zeroed(stream_, 1000);
  auto rows = carbide::DeviceBuffer<float>::zeroed(stream_, 37);
  launch(module_, kRegions, stream_, carbide::LaunchConfig1D(10, 32), carbide::detail::exclusive_view(regions),
         carbide::detail::exclusive_view(rows));
  const auto r = regions.to_host_vec(stream_), w = rows.to_host_vec(stream_);
  for (std::size_t i = 0; i < r.size(); ++i) EXPECT_EQ(r[i], float(i / 100)) << i;
  for (std::size_t i = 0; i < w.size(); ++i) EXPECT_EQ(w[i], float(i)) << i;
}

TEST_P(CpuLaunch, HaloBlocksOverlapOnlyInTheirLoads) {
  const std::size_t n = 200;
  const auto in = random_floats(n, 10);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream_, in);
  auto out = carbide::DeviceBuffer<float>::zeroed(stream_, n);
  launch(module_, kHalo, stream_, carbide::LaunchConfig1D(carbide::div_ceil(n, 62), 64), carbide::detail::read_view(in_dev),
         carbide::detail::exclusive_view(out));
  const auto o = out.to_host_vec(stream_);
  for (std::size_t i = 0; i < n; ++i)
    EXPECT_FLOAT_EQ(o[i], (i > 0 ? in[i - 1] : 0.f) + in[i] + (i + 1 < n ? in[i + 1] : 0.f)) << i;
}

TEST_P(CpuLaunch, TilesAndStridedTilesOfAMatrix) {
  const std::size_t rows = 7, cols = 10;
  auto grid = carbide::DeviceBuffer2D<float>::zeroed(stream_, rows, cols);
  auto strided = carbide::DeviceBuffer2D<float>::zeroed(stream_, rows, cols);
  launch(module_, kTiles, stream_, carbide::LaunchConfig2D({2, 2, 1}, {4, 4, 1}), carbide::detail::exclusive_view(grid),
         carbide::detail::exclusive_view(strided));
  const auto g = grid.to_host_vec(stream_), s = strided.to_host_vec(stream_);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) {
      EXPECT_EQ(g[r * cols + c], float(100 * r + c)) << r << ", " << c;
      EXPECT_EQ(s[r * cols + c], float(100 * r + c)) << r << ", " << c;
    }
}

INSTANTIATE_TEST_SUITE_P(Checks, CpuLaunch, testing::Values("on", "off"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           return std::string("checks_") + info.param;
                         });

}  // namespace
