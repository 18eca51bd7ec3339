// transpose.cpp — out = inᵀ for an 8192 × 8192 float matrix. Each block of 32 × 4 threads moves
// one 32 × 32 tile: it reads the tile of `in` along rows (each thread eight rows, four apart),
// keeps it in shared memory padded to 33 columns (no bank conflicts), and writes it transposed
// along rows of `out`, each thread eight rows four apart again (a strided tile), so that the
// block's four warps write four consecutive rows at a time.
#include <carbide/carbide.hpp>

#include "../common/sample_check.hpp"

#include <cstdint>
#include <limits>

namespace transpose {

constexpr unsigned kTile = 32;
constexpr unsigned kThreadRows = 4;
constexpr unsigned kRowsPerThread = kTile / kThreadRows;  // 8

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kTile * kThreadRows, 16)  // sixteen blocks per SM: 32 registers a thread
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (kTile, kThreadRows, 1))
void transpose(carbide::span<const float> in, std::uint32_t in_rows, std::uint32_t in_cols,
               carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d();  // its rows ty, ty + 4, … of the block's 32 × 32 tile of `out`
  const unsigned tx = carbide::thread::thread_idx().x;
  const unsigned ty = carbide::thread::thread_idx().y;
  const carbide::dim3 block = carbide::thread::block_idx();
  auto tile = carbide::block::shared<float, kTile * (kTile + 1)>();
  // The input tile whose transpose is this block's output tile: tile[r][c] = in(32·bx + r, 32·by + c).
  const std::size_t in_col = std::size_t(block.y) * kTile + tx;
  for (unsigned j = 0; j < kRowsPerThread; ++j) {
    const unsigned r = ty + j * kThreadRows;
    const std::size_t in_row = std::size_t(block.x) * kTile + r;
    if (in_row < in_rows && in_col < in_cols) tile[r * (kTile + 1) + tx] = in[in_row * in_cols + in_col];
  }
  carbide::block::sync();
  // out(32·by + ty + 4·i, 32·bx + tx) = in(32·bx + tx, 32·by + ty + 4·i) = tile[tx][ty + 4·i].
  if (auto mine = out.get_mut_strided_tile<kRowsPerThread, 1>(own)) {
    carbide::vec<float, kRowsPerThread> column;
    for (unsigned i = 0; i < kRowsPerThread; ++i) column[i] = tile[tx * (kTile + 1) + ty + i * kThreadRows];
    mine.store_column(0, column);
  }
}

// The textbook's block order (cuda-samples' transposeNoBankConflicts): block (bx, by) reads the
// input tile at its own coordinates, (row by, column bx), so consecutive blocks read along rows
// of `in`, and writes the output tile at its transposed coordinates, (row bx, column by), which
// it owns through thread::index_2d_transposed(). The launch checks that the grid is the output's
// tile grid transposed. Kept beside `transpose` to measure which order the H200 prefers.
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kTile * kThreadRows, 16)
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (kTile, kThreadRows, 1))
void transpose_row_order(carbide::span<const float> in, std::uint32_t in_rows, std::uint32_t in_cols,
                         carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d_transposed();  // rows ty, ty + 4, … of out's tile (bx, by)
  const unsigned tx = carbide::thread::thread_idx().x;
  const unsigned ty = carbide::thread::thread_idx().y;
  const carbide::dim3 block = carbide::thread::block_idx();
  auto tile = carbide::block::shared<float, kTile * (kTile + 1)>();
  // tile[r][c] = in(32·by + r, 32·bx + c).
  const std::size_t in_col = std::size_t(block.x) * kTile + tx;
  for (unsigned j = 0; j < kRowsPerThread; ++j) {
    const unsigned r = ty + j * kThreadRows;
    const std::size_t in_row = std::size_t(block.y) * kTile + r;
    if (in_row < in_rows && in_col < in_cols) tile[r * (kTile + 1) + tx] = in[in_row * in_cols + in_col];
  }
  carbide::block::sync();
  // out(32·bx + ty + 4·i, 32·by + tx) = in(32·by + tx, 32·bx + ty + 4·i) = tile[tx][ty + 4·i].
  if (auto mine = out.get_mut_strided_tile<kRowsPerThread, 1>(own)) {
    carbide::vec<float, kRowsPerThread> column;
    for (unsigned i = 0; i < kRowsPerThread; ++i) column[i] = tile[tx * (kTile + 1) + ty + i * kThreadRows];
    mine.store_column(0, column);
  }
}

}  // namespace transpose

int main(int argc, char** argv) try {
  auto ctx = carbide::Context::create_default();  // GPU 0, else the CPU
  const bool small = sample::small_run(argc, argv, ctx);
  auto stream = ctx.default_stream();
  const std::uint32_t rows = (small ? 256 : 8192) + 17, cols = (small ? 256 : 8192) - 5;  // partial tiles on both edges
  const std::vector<float> in = sample::random_floats(std::size_t(rows) * cols);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream, in);
  auto out_dev = carbide::DeviceBuffer2D<float>::from_host(
      stream, std::vector<float>(in.size(), std::numeric_limits<float>::quiet_NaN()), cols, rows);
  auto module = transpose::load(ctx);
  const unsigned tile = transpose::kTile;
  auto prepared = module.prepare_transpose(carbide::LaunchConfig2D(
      {carbide::div_ceil(rows, tile), carbide::div_ceil(cols, tile), 1},
      {tile, transpose::kThreadRows, 1}));
  module.transpose(stream, prepared, in_dev, rows, cols, out_dev);

  std::vector<double> expected(in.size());
  for (std::size_t r = 0; r < cols; ++r)
    for (std::size_t c = 0; c < rows; ++c) expected[r * rows + c] = in[c * cols + r];
  const int own_order = sample::verdict("transpose with partial tiles on both edges",
                                        sample::relative_error(out_dev.to_host_vec(stream), expected), 0.0);

  auto row_order_out = carbide::DeviceBuffer2D<float>::from_host(
      stream, std::vector<float>(in.size(), std::numeric_limits<float>::quiet_NaN()), cols, rows);
  auto row_order = module.prepare_transpose_row_order(carbide::LaunchConfig2D(
      {carbide::div_ceil(cols, tile), carbide::div_ceil(rows, tile), 1}, {tile, transpose::kThreadRows, 1}));
  module.transpose_row_order(stream, row_order, in_dev, rows, cols, row_order_out);
  const int textbook_order = sample::verdict("transpose in the textbook's block order, partial tiles on both edges",
                                             sample::relative_error(row_order_out.to_host_vec(stream), expected), 0.0);
  return own_order != 0 ? own_order : textbook_order;
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
