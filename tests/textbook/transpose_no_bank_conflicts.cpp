// transpose_no_bank_conflicts.cpp — port of `transposeNoBankConflicts` from cuda-samples
// 6_Performance/transpose (M. Harris, "An Efficient Matrix Transpose in CUDA C/C++"):
// TILE_DIM = 32, BLOCK_ROWS = 8, a 32 × 8 block moves one 32 × 32 tile through
// `__shared__ float tile[TILE_DIM][TILE_DIM + 1]`, each thread four rows eight apart
// (`for (j = 0; j < TILE_DIM; j += BLOCK_ROWS)`), reading along rows of idata and writing along
// rows of odata.
//
// Changed from the textbook:
// - `tile[32][33]` → `block::shared<float, 32 * 33>()`, `tile[ty + j][tx]` → `tile[(ty + j) * 33 + tx]`;
// - `__syncthreads()` → `block::sync()`; threadIdx/blockIdx/gridDim → thread_idx()/block_idx()/grid_dim();
// - the output: the textbook's thread writes odata[(y + j) * width + x] for x = by·32 + tx,
//   y = bx·32 + ty, j = 0, 8, 16, 24, the tile at the block's transposed coordinates. An
//   exclusive 2-D view hands a thread exactly that shape through
//   `get_mut_strided_tile<4, 1>(index_2d_transposed())`: column tx of rows ty, ty + 8, … of
//   odata's tile (bx, by). The launch checks that the grid is odata's tile grid transposed. The write `odata[(y + j) * width + x] = tile[tx][ty + j]` becomes
//   `mine.store(j / BLOCK_ROWS, 0, tile[tx * 33 + ty + j])`, and the read phase is the textbook's;
// - width = gridDim.x · TILE_DIM, as in the textbook (square matrix, a multiple of 32).
//
// Accepted by `carbide check` with no finding:
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(TILE_DIM * BLOCK_ROWS)
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (TILE_DIM, BLOCK_ROWS, 1))
void transposeNoBankConflicts(carbide::disjoint_span2d<float> odata, carbide::span<const float> idata) {
  auto tile = carbide::block::shared<float, TILE_DIM * (TILE_DIM + 1)>();
  auto own = carbide::thread::index_2d_transposed();

  int x = carbide::thread::block_idx().x * TILE_DIM + carbide::thread::thread_idx().x;
  int y = carbide::thread::block_idx().y * TILE_DIM + carbide::thread::thread_idx().y;
  int width = carbide::thread::grid_dim().x * TILE_DIM;

  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[(carbide::thread::thread_idx().y + j) * (TILE_DIM + 1) + carbide::thread::thread_idx().x] =
        idata[(y + j) * width + x];

  carbide::block::sync();

  if (auto mine = odata.get_mut_strided_tile<TILE_DIM / BLOCK_ROWS, 1>(own)) {
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
      mine.store(j / BLOCK_ROWS, 0,
                 tile[carbide::thread::thread_idx().x * (TILE_DIM + 1) + carbide::thread::thread_idx().y + j]);
  }
}

}  // namespace kernels
