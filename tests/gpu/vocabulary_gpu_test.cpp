// The device vocabulary on a real device: shared tiles and barriers, warp collectives, atomics,
// 2-D views, grid-stride loops — each against a CPU reference on fresh random data.
#include "gpu_kernels.carbide.hpp"
#include "gpu_test_support.hpp"
#include "particles.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {

constexpr unsigned kBlock = 256;

TEST(Vocabulary, BlockTreeAndWarpPartialsSumAllElements) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = (1 << 22) + 1000;
  const auto in = random_floats(n);
  double reference = 0;
  for (float v : in) reference += v;
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream, in);
  auto totals = carbide::DeviceBuffer<float>::zeroed(stream, 2);
  auto module = gpu_vocabulary::load(ctx);
  module.sums(stream, module.prepare_sums(carbide::LaunchConfig1D(carbide::div_ceil(n, kBlock), kBlock)),
              in_dev, totals);
  const auto result = totals.to_host_vec(stream);
  double magnitude = 0;
  for (float v : in) magnitude += std::fabs(v);
  // float32 partial sums in a different order than the float64 reference.
  EXPECT_LT(std::fabs(result[0] - reference) / magnitude, 1e-5) << result[0] << " vs " << reference;
  EXPECT_LT(std::fabs(result[1] - reference) / magnitude, 1e-5) << result[1] << " vs " << reference;
}

// Two instances of one kernel template, each with its own element type, block and contract.
template <class T, unsigned Block>
void expect_blocks_reversed(const gpu_vocabulary::Module& module, const carbide::Stream& stream) {
  const std::size_t n = 64 * Block;
  std::vector<T> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = T(i % 1000) / T(7);
  auto in = carbide::DeviceBuffer<T>::from_host(stream, values);
  auto out = carbide::DeviceBuffer<T>::zeroed(stream, n);
  module.reverse_scaled(stream, module.prepare_reverse_scaled<T, Block>(carbide::LaunchConfig1D(n / Block, Block)),
                        out, in, T(3));
  const std::vector<T> reversed = out.to_host_vec(stream);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t block = i / Block, within = i % Block;
    ASSERT_EQ(reversed[i], T(3) * values[block * Block + Block - 1 - within]) << "element " << i;
  }
  // The contract follows the template's arguments: another block size is refused.
  const auto other_block = [&] { module.prepare_reverse_scaled<T, Block>(carbide::LaunchConfig1D(n / 32, 32)); };
  EXPECT_THROW(other_block(), carbide::LaunchContractError);
}

TEST(Vocabulary, KernelTemplateInstancesRunWithTheirOwnArguments) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  auto module = gpu_vocabulary::load(ctx);
  expect_blocks_reversed<float, 256>(module, stream);
  expect_blocks_reversed<double, 64>(module, stream);
}

TEST(Vocabulary, AtomicHistogramCountsExactly) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = 1 << 20;
  std::mt19937 generator(std::random_device{}());
  std::vector<unsigned> values(n);
  for (unsigned& v : values) v = generator();
  std::vector<unsigned> expected(256, 0);
  for (unsigned v : values) ++expected[v % 256];
  auto values_dev = carbide::DeviceBuffer<unsigned>::from_host(stream, values);
  auto bins = carbide::DeviceBuffer<unsigned>::zeroed(stream, 256);
  auto module = gpu_vocabulary::load(ctx);
  module.histogram(stream, module.prepare_histogram(carbide::LaunchConfig1D(n / kBlock, kBlock)),
                   values_dev, bins);
  EXPECT_EQ(bins.to_host_vec(stream), expected);
}

TEST(Vocabulary, TwoDimensionalViewReachesEveryElementOnce) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t rows = 333, cols = 517;  // not multiples of the 16x16 block
  auto m = carbide::DeviceBuffer2D<float>::from_host(stream, poisoned(rows * cols), rows, cols);
  auto module = gpu_vocabulary::load(ctx);
  module.coordinates(stream,
                     module.prepare_coordinates(carbide::LaunchConfig2D(
                         {carbide::div_ceil(cols, 16), carbide::div_ceil(rows, 16), 1}, {16, 16, 1})),
                     m);
  const auto host = m.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) wrong += host[r * cols + c] != float(r * 1000 + c);
  EXPECT_EQ(wrong, 0u);
}

// index_2d<block_order::grouped<3>>(): the blocks in launch order (row-major) fill three block
// rows at a time, column by column, the last group with the rows left (7 = 3 + 3 + 1); every
// element is written once, by the block that order gives its tile.
TEST(Vocabulary, GroupedBlockOrderFillsGroupsOfRowsColumnByColumn) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const unsigned grid_x = 5, grid_y = 7, group = 3;
  const std::size_t rows = grid_y * 8 - 3, cols = grid_x * 16 - 5;  // partial last blocks
  auto writer = carbide::DeviceBuffer2D<unsigned>::from_host(
      stream, std::vector<unsigned>(rows * cols, 0xffffffffu), rows, cols);
  auto module = gpu_vocabulary::load(ctx);
  module.grouped_blocks(stream, module.prepare_grouped_blocks(carbide::LaunchConfig2D({grid_x, grid_y, 1}, {16, 8, 1})),
                        writer);
  // The tile each launched block gets, filled as the order is described.
  std::vector<unsigned> tile_of_launched(grid_x * grid_y);
  unsigned launched = 0;
  for (unsigned first_row = 0; first_row < grid_y; first_row += group)
    for (unsigned x = 0; x < grid_x; ++x)
      for (unsigned y = first_row; y < std::min(first_row + group, grid_y); ++y) tile_of_launched[launched++] = (y << 16) | x;
  const auto host = writer.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) {
      const unsigned block = host[r * cols + c];
      if (block == 0xffffffffu) {
        ++wrong;
        continue;
      }
      const unsigned launch_order = (block >> 16) * grid_x + (block & 0xffffu);
      wrong += tile_of_launched.at(launch_order) != ((unsigned(r / 8) << 16) | unsigned(c / 16));
    }
  EXPECT_EQ(wrong, 0u);
}

// Chaining on the device: a matrix one launch wrote (disjoint_span2d) is the next launch's
// read view through flat(), and copy_from copies buffers and matrices without a host trip.
TEST(Vocabulary, LaunchesChainThroughFlatMatricesAndDeviceCopies) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t rows = 33, cols = 20;
  auto m = carbide::DeviceBuffer2D<float>::from_host(stream, poisoned(rows * cols), rows, cols);
  auto module = gpu_vocabulary::load(ctx);
  module.coordinates(stream,
                     module.prepare_coordinates(carbide::LaunchConfig2D(
                         {carbide::div_ceil(cols, 16), carbide::div_ceil(rows, 16), 1}, {16, 16, 1})),
                     m);
  auto copy = carbide::DeviceBuffer2D<float>::from_host(stream, poisoned(rows * cols), rows, cols);
  copy.copy_from(stream, m);
  auto plus_one = carbide::DeviceBuffer<float>::from_host(stream, poisoned(rows * cols));
  module.add_one_chunked(
      stream,
      module.prepare_add_one_chunked(carbide::LaunchConfig1D(carbide::div_ceil(carbide::div_ceil(rows * cols, 4), kBlock), kBlock)),
      copy.flat(), plus_one);
  auto again = carbide::DeviceBuffer<float>::zeroed(stream, rows * cols);
  again.copy_from(stream, plus_one);
  const auto host = again.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) wrong += host[r * cols + c] != float(r * 1000 + c) + 1.f;
  EXPECT_EQ(wrong, 0u);
  auto shorter = carbide::DeviceBuffer<float>::zeroed(stream, rows * cols - 1);
  EXPECT_THROW(shorter.copy_from(stream, plus_one), carbide::Error);

  // The written matrix read by (row, col) through a span2d in the next launch.
  auto transposed = carbide::DeviceBuffer2D<float>::from_host(stream, poisoned(rows * cols), cols, rows);
  module.transpose_read(stream,
                        module.prepare_transpose_read(carbide::LaunchConfig2D(
                            {carbide::div_ceil(rows, 16), carbide::div_ceil(cols, 16), 1}, {16, 16, 1})),
                        m, transposed);
  const auto t = transposed.to_host_vec(stream);
  wrong = 0;
  for (std::size_t c = 0; c < cols; ++c)
    for (std::size_t r = 0; r < rows; ++r) wrong += t[c * rows + r] != float(r * 1000 + c);
  EXPECT_EQ(wrong, 0u);
}

TEST(Vocabulary, TilePiecesStoreByRowAndByColumnUpToTheEdges) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t rows = 70, cols = 37;  // edges cut the last pieces in both directions
  auto by_columns = carbide::DeviceBuffer2D<float>::from_host(stream, poisoned(rows * cols), rows, cols);
  auto by_rows = carbide::DeviceBuffer2D<float>::from_host(stream, poisoned(rows * cols), rows, cols);
  auto module = gpu_vocabulary::load(ctx);
  const unsigned grid_x = unsigned(carbide::div_ceil(carbide::div_ceil(cols, 2), 16));
  const unsigned grid_y = unsigned(carbide::div_ceil(carbide::div_ceil(rows, 4), 16));
  module.tile_pieces(stream,
                     module.prepare_tile_pieces(carbide::LaunchConfig2D({grid_x, grid_y, 1}, {16, 16, 1})),
                     by_columns, by_rows);
  const auto columns_host = by_columns.to_host_vec(stream);
  const auto rows_host = by_rows.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) {
      const float expected = float(r * 1000 + c);
      wrong += columns_host[r * cols + c] != expected;
      wrong += rows_host[r * cols + c] != expected;
    }
  EXPECT_EQ(wrong, 0u);
}

TEST(Vocabulary, StridedPiecesAndTilesGiveEveryElementToOneThread) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  auto module = gpu_vocabulary::load(ctx);
  const std::size_t n = 5 * 3 * 4 * kBlock - 4 * kBlock - 2;  // whole pieces past the end, a partial one
  auto out = carbide::DeviceBuffer<float>::from_host(stream, poisoned(n));
  auto writes = carbide::DeviceBuffer<unsigned>::zeroed(stream, n);
  module.strided_pieces(stream, module.prepare_strided_pieces(carbide::LaunchConfig1D(5, kBlock)), out, writes);
  const auto values = out.to_host_vec(stream);
  const auto counts = writes.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += values[i] != float(i) || counts[i] != 1;
  EXPECT_EQ(wrong, 0u);

  const std::size_t rows = 70, cols = 37;
  auto matrix = carbide::DeviceBuffer2D<float>::from_host(stream, poisoned(rows * cols), rows, cols);
  auto matrix_writes = carbide::DeviceBuffer<unsigned>::zeroed(stream, rows * cols);
  const unsigned grid_x = unsigned(carbide::div_ceil(cols, 2 * 16)), grid_y = unsigned(carbide::div_ceil(rows, 3 * 8));
  module.strided_tiles(stream, module.prepare_strided_tiles(carbide::LaunchConfig2D({grid_x, grid_y, 1}, {16, 8, 1})),
                       matrix, matrix_writes);
  const auto elements = matrix.to_host_vec(stream);
  const auto element_counts = matrix_writes.to_host_vec(stream);
  wrong = 0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      wrong += elements[r * cols + c] != float(r * 1000 + c) || element_counts[r * cols + c] != 1;
  EXPECT_EQ(wrong, 0u);
}

// A transpose at the textbook's block order, on a 70 × 45 matrix (partial tiles on both edges of
// the input and the output): every element of the 45 × 70 output is the input's, stored once,
// under the only grid the launch accepts, the output's 2 × 3 tile grid transposed.
TEST(Vocabulary, TransposedTilesWriteEveryElementOnce) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  auto module = gpu_vocabulary::load(ctx);
  const std::size_t rows = 70, cols = 45;
  const auto values = random_floats(rows * cols);
  const auto in = carbide::DeviceBuffer2D<float>::from_host(stream, values, rows, cols);
  auto out = carbide::DeviceBuffer2D<float>::from_host(stream, poisoned(rows * cols), cols, rows);
  auto writes = carbide::DeviceBuffer<unsigned>::zeroed(stream, rows * cols);
  // Block (x, y) reads input tile (row y, column x) and writes output tile (row x, column y).
  const unsigned grid_x = unsigned(carbide::div_ceil(cols, 32)), grid_y = unsigned(carbide::div_ceil(rows, 32));
  module.transposed_tiles(
      stream, module.prepare_transposed_tiles(carbide::LaunchConfig2D({grid_x, grid_y, 1}, {32, 8, 1})), in, out,
      writes);
  const auto transposed = out.to_host_vec(stream);
  const auto counts = writes.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t r = 0; r < cols; ++r)
    for (std::size_t c = 0; c < rows; ++c)
      wrong += transposed[r * rows + c] != values[c * cols + r] || counts[r * rows + c] != 1;
  EXPECT_EQ(wrong, 0u);
  // The launch's own block order is the output's tile grid, not its transpose: refused.
  EXPECT_THROW(module.transposed_tiles(
                   stream, module.prepare_transposed_tiles(carbide::LaunchConfig2D({grid_y, grid_x, 1}, {32, 8, 1})),
                   in, out, writes),
               carbide::LaunchContractError);
}

TEST(Vocabulary, TransposedElementsLandAtTheirOwnCoordinates) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  auto module = gpu_vocabulary::load(ctx);
  const std::size_t rows = 37, cols = 50;  // 10 × 4 tiles of 4 × 16, the last row and column partial
  auto out = carbide::DeviceBuffer2D<float>::from_host(stream, poisoned(rows * cols), rows, cols);
  module.transposed_elements(
      stream, module.prepare_transposed_elements(carbide::LaunchConfig2D({10, 4, 1}, {16, 4, 1})), out);
  const auto elements = out.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) wrong += elements[r * cols + c] != float(r * 1000 + c);
  EXPECT_EQ(wrong, 0u);
}

// The Walsh-Hadamard transform in place, radix 2, for the GPU results to match exactly.
void walsh_on_host(std::vector<float>& values) {
  for (std::size_t stride = 1; stride < values.size(); stride *= 2)
    for (std::size_t i = 0; i < values.size(); ++i)
      if ((i & stride) == 0) {
        const float a = values[i], b = values[i + stride];
        values[i] = a + b;
        values[i + stride] = a - b;
      }
}

// A whole Walsh-Hadamard transform of 4096 floats through butterflies of `radix` (2: get_mut_pair,
// 4: get_mut_radix<4>), one launch per stage, against the host's: every element owned by exactly
// one thread at every stage, with one block more than the groups need (their groups lie past the
// end and are empty).
void expect_walsh_in_place(unsigned radix) {
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = std::size_t(1) << 12;
  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = float(int(i % 7) - 3);
  auto data = carbide::DeviceBuffer<float>::from_host(stream, values);
  auto claims = carbide::DeviceBuffer<unsigned>::zeroed(stream, n);
  auto module = gpu_vocabulary::load(ctx);
  const carbide::LaunchConfig1D config(n / radix / kBlock + 1, kBlock);
  unsigned stages = 0;
  for (unsigned stride = 1; stride < n; stride *= radix, ++stages) {
    if (radix == 2) module.walsh_step(stream, module.prepare_walsh_step(config), data, stride, claims);
    else module.walsh4_step(stream, module.prepare_walsh4_step(config), data, stride, claims);
  }
  walsh_on_host(values);
  const auto result = data.to_host_vec(stream);
  const auto counts = claims.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += result[i] != values[i] || counts[i] != stages;
  EXPECT_EQ(wrong, 0u);
}

TEST(Vocabulary, ButterflyPairsTransformInPlace) {
  CARBIDE_REQUIRE_DEVICE();
  expect_walsh_in_place(2);
}

TEST(Vocabulary, RadixFourGroupsTransformInPlace) {
  CARBIDE_REQUIRE_DEVICE();
  expect_walsh_in_place(4);
}

// The leader and region forms number blocks x fastest over a 2-D grid; the last region is cut
// at the view's end and the blocks past the totals' end get no element.
TEST(Vocabulary, BlockRegionsAndLeadersCoverTheirElementsOnce) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const unsigned grid_x = 5, grid_y = 3, blocks = grid_x * grid_y;
  const std::size_t n = 100 * blocks - 37, totals_n = blocks - 2;
  auto regions = carbide::DeviceBuffer<float>::from_host(stream, poisoned(n));
  auto totals = carbide::DeviceBuffer<float>::from_host(stream, poisoned(totals_n));
  auto claims = carbide::DeviceBuffer<unsigned>::zeroed(stream, 1);
  auto module = gpu_vocabulary::load(ctx);
  module.block_outputs(stream, module.prepare_block_outputs(carbide::LaunchConfig2D({grid_x, grid_y, 1}, {32, 3, 1})),
                       regions, totals, claims);
  const auto values = regions.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += values[i] != float(i % 100);
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(claims.to_host_vec(stream)[0], n);  // every element by exactly one thread
  for (const float total : totals.to_host_vec(stream)) EXPECT_EQ(total, 1.f);  // thread 0's
}

// Halo blocks overlap their neighbours' input tiles; their inner threads write every output
// once, and the halo threads none (a one-element halo wrongly owned would be written twice).
TEST(Vocabulary, HaloBlocksWriteEveryOutputOnceFromTheirInnerThreads) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = 10007;
  const std::vector<float> values = random_floats(n);
  auto in = carbide::DeviceBuffer<float>::from_host(stream, values);
  auto out = carbide::DeviceBuffer<float>::from_host(stream, poisoned(n));
  auto writes = carbide::DeviceBuffer<unsigned>::zeroed(stream, 1);
  auto module = gpu_vocabulary::load(ctx);
  const unsigned inner = kBlock - 2 * 3;
  module.halo_stencil(stream, module.prepare_halo_stencil(carbide::LaunchConfig1D(carbide::div_ceil(n, inner), kBlock)),
                      in, out, writes);
  const auto got = out.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double sum = 0;
    for (std::ptrdiff_t k = -3; k <= 3; ++k) {
      const std::ptrdiff_t at = std::ptrdiff_t(i) + k;
      if (at >= 0 && std::size_t(at) < n) sum += values[std::size_t(at)];
    }
    wrong += !(std::fabs(got[i] - sum) <= 1e-5 * (1 + std::fabs(sum)));
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(writes.to_host_vec(stream)[0], n);

  const std::size_t rows = 333, cols = 517;  // not multiples of the 14 × 14 inner tiles
  const std::vector<float> matrix = random_floats(rows * cols);
  auto m = carbide::DeviceBuffer2D<float>::from_host(stream, matrix, rows, cols);
  auto sums = carbide::DeviceBuffer2D<float>::from_host(stream, poisoned(rows * cols), rows, cols);
  module.box_sum(stream,
                 module.prepare_box_sum(carbide::LaunchConfig2D(
                     {carbide::div_ceil(cols, 14), carbide::div_ceil(rows, 14), 1}, {16, 16, 1})),
                 m, sums);
  const auto box = sums.to_host_vec(stream);
  wrong = 0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) {
      double sum = 0;
      for (std::ptrdiff_t dr = -1; dr <= 1; ++dr)
        for (std::ptrdiff_t dc = -1; dc <= 1; ++dc) {
          const std::ptrdiff_t rr = std::ptrdiff_t(r) + dr, cc = std::ptrdiff_t(c) + dc;
          if (rr >= 0 && cc >= 0 && std::size_t(rr) < rows && std::size_t(cc) < cols)
            sum += matrix[std::size_t(rr) * cols + std::size_t(cc)];
        }
      wrong += !(std::fabs(box[r * cols + c] - sum) <= 1e-5 * (1 + std::fabs(sum)));
    }
  EXPECT_EQ(wrong, 0u);
}

// More rows than blocks: each block takes rows b, b + 7, … (block::grid_stride), every row once.
TEST(Vocabulary, BlockStrideRowsGoToOneBlockEach) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const unsigned rows = 100, cols = 300, blocks = 7;
  const std::vector<float> values = random_floats(std::size_t(rows) * cols);
  auto in = carbide::DeviceBuffer<float>::from_host(stream, values);
  auto sums = carbide::DeviceBuffer<float>::from_host(stream, poisoned(rows));
  auto doubled = carbide::DeviceBuffer<float>::from_host(stream, poisoned(std::size_t(rows) * cols));
  auto module = gpu_vocabulary::load(ctx);
  module.row_sums(stream, module.prepare_row_sums(carbide::LaunchConfig1D(blocks, kBlock)), in, rows, cols, sums,
                  doubled);
  const auto got_sums = sums.to_host_vec(stream);
  const auto got_doubled = doubled.to_host_vec(stream);
  std::size_t wrong = 0;
  for (unsigned r = 0; r < rows; ++r) {
    double sum = 0;
    for (unsigned c = 0; c < cols; ++c) {
      sum += values[std::size_t(r) * cols + c];
      wrong += got_doubled[std::size_t(r) * cols + c] != 2.f * values[std::size_t(r) * cols + c];
    }
    wrong += !(std::fabs(got_sums[r] - sum) <= 1e-4 * (1 + std::fabs(sum)));
  }
  EXPECT_EQ(wrong, 0u);
}

TEST(Vocabulary, StridedPiecesUpdateInPlace) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = 5 * 3 * 4 * kBlock - 4 * kBlock - 2;  // whole pieces past the end, a partial one
  const auto values = random_floats(n);
  auto data = carbide::DeviceBuffer<float>::from_host(stream, values);
  auto module = gpu_vocabulary::load(ctx);
  module.double_strided(stream, module.prepare_double_strided(carbide::LaunchConfig1D(5, kBlock)), data);
  const auto result = data.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += result[i] != 2.f * values[i];
  EXPECT_EQ(wrong, 0u);
}

TEST(Vocabulary, RecordsFromAHeaderTravelThroughViews) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = 1000 + 3;
  const auto speeds = random_floats(3 * n);
  std::vector<gpu_vocabulary::Particle> particles(n);
  for (std::size_t i = 0; i < n; ++i)
    particles[i] = {{float(i), 0.f, -1.f}, {speeds[3 * i], speeds[3 * i + 1], speeds[3 * i + 2]}, std::uint32_t(i)};
  auto in = carbide::DeviceBuffer<gpu_vocabulary::Particle>::from_host(stream, particles);
  auto out = carbide::DeviceBuffer<gpu_vocabulary::Particle>::zeroed(stream, n);
  auto module = gpu_vocabulary::load(ctx);
  module.advance_particles(
      stream, module.prepare_advance_particles(carbide::LaunchConfig1D(carbide::div_ceil(n, kBlock), kBlock)), in,
      0.5f, out);
  const auto result = out.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const gpu_vocabulary::Particle expected = gpu_vocabulary::advanced(particles[i], 0.5f);
    for (int d = 0; d < 3; ++d)
      wrong += result[i].position[d] != expected.position[d] || result[i].velocity[d] != expected.velocity[d];
    wrong += result[i].id != std::uint32_t(i + 1);
  }
  EXPECT_EQ(wrong, 0u);
}

TEST(Vocabulary, GridStrideLoopCoversMoreElementsThanThreads) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = (1 << 21) + 3;
  const auto in = random_floats(n);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream, in);
  auto out = carbide::DeviceBuffer<float>::from_host(stream, poisoned(n));
  auto module = gpu_vocabulary::load(ctx);
  module.scale_all(stream, module.prepare_scale_all(carbide::LaunchConfig1D(8, kBlock)), in_dev, out,
                   3.f);
  const auto host = out.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += !(host[i] == 3.f * in[i]);
  EXPECT_EQ(wrong, 0u);
}

TEST(Vocabulary, SharedTileReversesEachBlock) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = kBlock * 1024;
  const auto in = random_floats(n);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream, in);
  auto out = carbide::DeviceBuffer<float>::from_host(stream, poisoned(n));
  auto module = gpu_vocabulary::load(ctx);
  module.reverse_blocks(stream, module.prepare_reverse_blocks(carbide::LaunchConfig1D(n / kBlock, kBlock)),
                        in_dev, out);
  const auto host = out.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t block = i / kBlock, lane = i % kBlock;
    wrong += !(host[i] == in[block * kBlock + (kBlock - 1 - lane)]);
  }
  EXPECT_EQ(wrong, 0u);
}

TEST(Vocabulary, WarpInclusiveScanAddsEachLanesPredecessors) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = kBlock * 64 + 40;  // a partial last warp reads zeros past the end
  std::vector<unsigned> in(n);
  std::mt19937 generator(std::random_device{}());
  for (unsigned& v : in) v = generator() % 1000;
  auto in_dev = carbide::DeviceBuffer<unsigned>::from_host(stream, in);
  auto out = carbide::DeviceBuffer<unsigned>::zeroed(stream, n);
  auto module = gpu_vocabulary::load(ctx);
  module.warp_scan(stream, module.prepare_warp_scan(carbide::LaunchConfig1D(carbide::div_ceil(n, kBlock), kBlock)),
                   in_dev, out);
  const auto host = out.to_host_vec(stream);
  std::size_t wrong = 0;
  unsigned running = 0;
  for (std::size_t i = 0; i < n; ++i) {
    running = (i % 32 == 0 ? 0 : running) + in[i];
    wrong += host[i] != running;
  }
  EXPECT_EQ(wrong, 0u);
}

TEST(Vocabulary, WarpReductionsBroadcastsAndShufflesByLane) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = kBlock * 3 + 40;  // a last warp of 8 values, the rest of it past the end
  std::mt19937 generator(std::random_device{}());
  std::uniform_int_distribution<int> values(-1000, 1000);
  std::vector<int> in(n);
  for (int& v : in) v = values(generator);
  auto in_dev = carbide::DeviceBuffer<int>::from_host(stream, in);
  auto out = carbide::DeviceBuffer<int>::zeroed(stream, n);
  auto module = gpu_vocabulary::load(ctx);
  module.warp_forms(stream, module.prepare_warp_forms(carbide::LaunchConfig1D(carbide::div_ceil(n, kBlock), kBlock)),
                    in_dev, out);
  const auto host = out.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t first = i - i % 32;
    const auto value = [&](std::size_t at) { return at < n ? in[at] : 0; };  // lanes past the end hold 0
    int largest = value(first), smallest = value(first);
    for (std::size_t at = first; at < first + 32; ++at) {
      largest = std::max(largest, value(at));
      smallest = std::min(smallest, value(at));
    }
    const int expected[5] = {largest, smallest, value(first), value(first + 31), value(first + (i % 32 + 1) % 32)};
    wrong += host[i] != expected[(i % 32) % 5];
  }
  EXPECT_EQ(wrong, 0u);
}

// Eight warps a block, a grid with warps past the last row, and rows of 70: every element of the
// output is written by its row's warp, and each row's maximum by the warp's lane 0.
TEST(Vocabulary, WarpOwnedRowsAndTheirLeaders) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const unsigned rows = 21, cols = 70;
  std::mt19937 generator(std::random_device{}());
  std::uniform_int_distribution<int> values(-1000, 1000);
  std::vector<int> in(rows * cols);
  for (int& v : in) v = values(generator);
  auto in_dev = carbide::DeviceBuffer<int>::from_host(stream, in);
  auto out = carbide::DeviceBuffer<int>::from_host(stream, std::vector<int>(rows * cols, 7777));
  auto largest = carbide::DeviceBuffer<int>::from_host(stream, std::vector<int>(rows + 3, 7777));
  auto module = gpu_vocabulary::load(ctx);
  module.warp_rows(stream, module.prepare_warp_rows(carbide::LaunchConfig1D(3, kBlock)), in_dev, out, largest, rows,
                   cols);
  const auto got = out.to_host_vec(stream);
  const auto tops = largest.to_host_vec(stream);
  std::size_t wrong = 0;
  for (unsigned r = 0; r < rows; ++r) {
    const int top = *std::max_element(in.begin() + r * cols, in.begin() + (r + 1) * cols);
    wrong += tops[r] != top;
    for (unsigned c = 0; c < cols; ++c) wrong += got[r * cols + c] != in[r * cols + c] - top;
  }
  // The scalars past the last row stay as they were.
  for (unsigned r = rows; r < rows + 3; ++r) wrong += tops[r] != 7777;
  EXPECT_EQ(wrong, 0u);
}

// index_1d<block_order::reversed>(): block b writes the elements of block G − 1 − b, each once,
// the last block's cut at the view's end.
TEST(Vocabulary, ReversedBlockOrder) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const unsigned blocks = 5;
  const std::size_t n = kBlock * (blocks - 1) + 7;
  auto out = carbide::DeviceBuffer<unsigned>::from_host(stream, std::vector<unsigned>(n, 7777u));
  auto module = gpu_vocabulary::load(ctx);
  module.reversed_blocks(stream, module.prepare_reversed_blocks(carbide::LaunchConfig1D(blocks, kBlock)), out);
  const auto got = out.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += got[i] != blocks - 1 - i / kBlock;
  EXPECT_EQ(wrong, 0u);
}

TEST(Vocabulary, CudaVectorTypesAsViewElements) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const unsigned blocks = 3;
  const std::size_t n = kBlock * (blocks - 1) + 5;  // a partial last block
  const std::vector<float> values = random_floats(4 * n);
  std::vector<float4> points(n);
  std::vector<uint4> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    points[i] = make_float4(values[4 * i], values[4 * i + 1], values[4 * i + 2], values[4 * i + 3]);
    keys[i] = make_uint4(unsigned(i % 7), unsigned(i % 5), 3u, unsigned(i % 11));
  }
  auto points_dev = carbide::DeviceBuffer<float4>::from_host(stream, points);
  auto keys_dev = carbide::DeviceBuffer<uint4>::from_host(stream, keys);
  auto scaled = carbide::DeviceBuffer<float4>::zeroed(stream, n);
  auto neighbours = carbide::DeviceBuffer<float2>::zeroed(stream, n);
  auto module = gpu_vocabulary::load(ctx);
  module.vector_elements(stream, module.prepare_vector_elements(carbide::LaunchConfig1D(blocks, kBlock)),
                         points_dev, keys_dev, scaled, neighbours);
  const auto got_scaled = scaled.to_host_vec(stream);
  const auto got_neighbours = neighbours.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float4 p = points[i];
    const uint4 k = keys[i];
    const float4 s = got_scaled[i];
    wrong += s.x != p.x * float(k.x) || s.y != p.y * float(k.y) || s.z != p.z * float(k.z) || s.w != p.w * float(k.w);
    // The next thread's pair in the block; past the end, threads loaded zeros.
    const std::size_t next = i / kBlock * kBlock + (i + 1) % kBlock;
    const float4 q = next < n ? points[next] : make_float4(0.f, 0.f, 0.f, 0.f);
    wrong += got_neighbours[i].x != q.x + q.y || got_neighbours[i].y != q.z + q.w;
  }
  EXPECT_EQ(wrong, 0u);
}

// The filter, gain and palette as the kernel applies them, on the host.
std::vector<float> filtered(const std::vector<float>& in, const std::vector<unsigned>& colours,
                            const std::vector<float>& taps, float gain, const std::vector<float4>& palette) {
  std::vector<float> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    float sum = 0.f;
    for (std::size_t j = 0; j < taps.size(); ++j)
      if (i + j < in.size()) sum += taps[j] * in[i + j];
    out[i] = gain * sum + palette[colours[i]].x - palette[colours[i]].w;
  }
  return out;
}

TEST(Vocabulary, ConstantTablesAreSetInStreamOrder) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = kBlock * 4 + 3;
  const std::vector<float> in = random_floats(n);
  std::vector<unsigned> colours(n);
  for (std::size_t i = 0; i < n; ++i) colours[i] = unsigned(i * 5 % 8);
  std::vector<float4> palette(8);
  for (unsigned c = 0; c < 8; ++c) palette[c] = make_float4(float(c), 0.f, 0.f, 0.5f * float(c));
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream, in);
  auto colours_dev = carbide::DeviceBuffer<unsigned>::from_host(stream, colours);
  auto first = carbide::DeviceBuffer<float>::zeroed(stream, n);
  auto second = carbide::DeviceBuffer<float>::zeroed(stream, n);
  auto module = gpu_vocabulary::load(ctx);
  const auto prepared =
      module.prepare_constant_tables(carbide::LaunchConfig1D(carbide::div_ceil(n, std::size_t(kBlock)), kBlock));
  constexpr std::size_t kTaps = 9;  // gpu_vocabulary::kTableTaps
  std::vector<float> taps(kTaps, 0.25f), ramp(kTaps);
  for (std::size_t j = 0; j < ramp.size(); ++j) ramp[j] = float(j) - 4.f;
  module.set_palette(stream, palette.data(), palette.size());
  module.set_table_gain(stream, 3.f);
  module.set_table_taps(stream, taps.data(), taps.size());
  const int unread[4] = {1, 2, 3, 4};
  module.set_unread_table(stream, unread);
  module.constant_tables(stream, prepared, in_dev, colours_dev, first);
  // Set again, queued after the first launch and before the second.
  module.set_table_taps(stream, ramp.data(), ramp.size());
  module.constant_tables(stream, prepared, in_dev, colours_dev, second);
  const std::vector<float> want_first = filtered(in, colours, taps, 3.f, palette);
  const std::vector<float> want_second = filtered(in, colours, ramp, 3.f, palette);
  const auto got_first = first.to_host_vec(stream), got_second = second.to_host_vec(stream);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_NEAR(got_first[i], want_first[i], 1e-4f * (1.f + std::fabs(want_first[i]))) << i;
    EXPECT_NEAR(got_second[i], want_second[i], 1e-4f * (1.f + std::fabs(want_second[i]))) << i;
  }
  EXPECT_THROW(module.set_table_taps(stream, ramp.data(), ramp.size() - 1), carbide::Error);
}

TEST(Vocabulary, IntrinsicsOnTheDeviceMatchTheirHostDefinitions) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = kBlock * 40 + 17;
  std::mt19937 generator(std::random_device{}());
  std::uniform_real_distribution<float> positive(0.5f, 2.f);
  std::vector<float> x(n);
  std::vector<unsigned> u(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = positive(generator);
    u[i] = i % 97 == 0 ? 0u : unsigned(generator());  // zero is every bit count's edge
  }
  auto x_dev = carbide::DeviceBuffer<float>::from_host(stream, x);
  auto u_dev = carbide::DeviceBuffer<unsigned>::from_host(stream, u);
  auto floats = carbide::DeviceBuffer<float>::zeroed(stream, n);
  auto ints = carbide::DeviceBuffer<unsigned>::zeroed(stream, n);
  auto module = gpu_vocabulary::load(ctx);
  const carbide::LaunchConfig1D grid(carbide::div_ceil(n, kBlock), kBlock);
  module.fast_math(stream, module.prepare_fast_math(grid), x_dev, floats);
  module.integer_intrinsics(stream, module.prepare_integer_intrinsics(grid), u_dev, ints);
  const auto device_floats = floats.to_host_vec(stream);
  const auto device_ints = ints.to_host_vec(stream);
  std::size_t far = 0, wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float v = x[i];
    const float host = __fdividef(__expf(v), rsqrtf(v)) + __saturatef(v - 1.f) + __sinf(v) +
                       __logf(v) + __frcp_rn(v) + __int_as_float(__float_as_int(v));
    // The device's fast-math forms are approximations (a few ulp of each term).
    far += std::fabs(device_floats[i] - host) > 1e-5f * std::fabs(host) + 1e-6f;
    const unsigned w = u[i];
    const unsigned expected =
        (unsigned(__popc(w)) + 33u * unsigned(__clz(int(w))) + 1089u * unsigned(__ffs(int(w)))) ^
        __brev(w) ^ __umulhi(w, 0x9E3779B9u) ^ __umul24(w, 77u) ^ unsigned(__mul24(int(w), -3));
    wrong += device_ints[i] != expected;
  }
  EXPECT_EQ(far, 0u);
  EXPECT_EQ(wrong, 0u);  // integer intrinsics are exact
}

TEST(Vocabulary, DynamicSharedMemoryBeyond48KiBHoldsATile) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = kBlock * 512;
  const auto in = random_floats(n);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream, in);
  auto out = carbide::DeviceBuffer<float>::from_host(stream, poisoned(n));
  auto module = gpu_vocabulary::load(ctx);
  module.reverse_through_dynamic(
      stream,
      module.prepare_reverse_through_dynamic(carbide::LaunchConfig1D(n / kBlock, kBlock, 64 * 1024)),
      in_dev, out);
  const auto host = out.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    wrong += !(host[i] == in[(i / kBlock) * kBlock + (kBlock - 1 - i % kBlock)]);
  EXPECT_EQ(wrong, 0u);
}

TEST(Vocabulary, ChunksLoadAndStoreFourAtATimeWithAPartialTail) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = kBlock * 4 * 100 + 7;
  const auto in = random_floats(n);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream, in);
  auto out = carbide::DeviceBuffer<float>::from_host(stream, poisoned(n));
  auto module = gpu_vocabulary::load(ctx);
  module.add_one_chunked(
      stream,
      module.prepare_add_one_chunked(carbide::LaunchConfig1D(carbide::div_ceil(carbide::div_ceil(n, 4), kBlock), kBlock)),
      in_dev, out);
  const auto host = out.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += !(host[i] == in[i] + 1.f);
  EXPECT_EQ(wrong, 0u);
}

}  // namespace
