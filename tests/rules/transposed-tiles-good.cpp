// thread::index_2d_transposed() as a transpose writes it: each block reads the input tile at its
// own coordinates and writes the output tile at its transposed ones, in any of the 2-D forms,
// directly or through a helper that takes the witness.
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

constexpr unsigned kTile = 32;
constexpr unsigned kRows = 8;

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (kTile, kRows, 1))
void transpose(carbide::span2d<const float> in, carbide::disjoint_span2d<float> out) {
  auto tile = carbide::block::shared<float, kTile * (kTile + 1)>();
  const unsigned tx = carbide::thread::thread_idx().x, ty = carbide::thread::thread_idx().y;
  const std::size_t col = std::size_t(carbide::thread::block_idx().x) * kTile + tx;
  for (unsigned j = 0; j < kTile; j += kRows) {
    const std::size_t row = std::size_t(carbide::thread::block_idx().y) * kTile + ty + j;
    if (row < in.rows() && col < in.cols()) tile[(ty + j) * (kTile + 1) + tx] = in(row, col);
  }
  carbide::block::sync();
  if (auto mine = out.get_mut_strided_tile<kTile / kRows, 1>(carbide::thread::index_2d_transposed()))
    for (unsigned j = 0; j < kTile; j += kRows) mine.store(j / kRows, 0, tile[tx * (kTile + 1) + ty + j]);
}

// One element, or a register tile, per thread; the witness passed by const&.
void write_tile(carbide::disjoint_span2d<float> target,
                const carbide::thread::index_2d_transposed_witness& swapped, float value) {
  if (auto piece = target.get_mut_tile<2, 2>(swapped))
    for (int i = 0; i < piece.rows(); ++i) piece.store_row(i, carbide::vec<float, 2>{value, value});
}
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void swapped_pieces(carbide::disjoint_span2d<float> ones, carbide::disjoint_span2d<float> tiles) {
  auto swapped = carbide::thread::index_2d_transposed();
  if (float* e = ones.get_mut(swapped)) *e = float(swapped.row() * 1000 + swapped.col());
  write_tile(tiles, swapped, 1.f);
}

}  // namespace kernels
