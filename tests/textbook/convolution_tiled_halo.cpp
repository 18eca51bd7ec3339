// convolution_tiled_halo.cpp — port of "Programming Massively Parallel Processors" (Hwu, Kirk,
// El Hajj, 4th ed.), chapter 7, `convolution_tiled_2D_const_mem_kernel`: a 2-D convolution whose
// 32 × 32 blocks each load their whole input tile, halo included, into shared memory, and whose
// inner 28 × 28 threads compute the outputs (the threads of the 2-wide halo only load).
//
// Changed from the textbook:
// - `int col = blockIdx.x * OUT_TILE_DIM + threadIdx.x - FILTER_RADIUS` (and `row`) is the witness
//   `thread::index_2d_halo<FILTER_RADIUS>()`: `own.col()` and `own.row()` are those numbers, and
//   `P.get_mut(own)` gives the inner threads their output, which the textbook selects with
//   `tileCol >= 0 && tileCol < OUT_TILE_DIM && tileRow >= 0 && tileRow < OUT_TILE_DIM` and the
//   bounds test `row < height && col < width`;
// - `P[row * width + col] = Pvalue` → `*p = Pvalue` through the claim, on a disjoint_span2d;
// - `__constant__ float F_c[...]` → a kernel-argument struct (there is no `__constant__`);
// - `__shared__ float N_s[IN_TILE_DIM][IN_TILE_DIM]` → `block::shared<float, 32 * 32>()`,
//   indexed `ty * IN_TILE_DIM + tx`.
// Before session 14 (index_2d_halo) this kernel had no safe form: no witness gave a block the
// output tile smaller than itself.
//
// Accepted by `carbide check` with no finding:
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

constexpr int FILTER_RADIUS = 2;
constexpr int IN_TILE_DIM = 32;
constexpr int OUT_TILE_DIM = IN_TILE_DIM - 2 * FILTER_RADIUS;

struct Filter {
  float F_c[2 * FILTER_RADIUS + 1][2 * FILTER_RADIUS + 1];
};

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(IN_TILE_DIM * IN_TILE_DIM)
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (IN_TILE_DIM, IN_TILE_DIM, 1))
void convolution_tiled_2D_const_mem_kernel(carbide::span<const float> N, carbide::disjoint_span2d<float> P,
                                           int width, int height, Filter filter) {
  auto own = carbide::thread::index_2d_halo<FILTER_RADIUS>();
  const int col = int(own.col());
  const int row = int(own.row());
  const int tx = carbide::thread::thread_idx().x;
  const int ty = carbide::thread::thread_idx().y;
  // loading input tile
  auto N_s = carbide::block::shared<float, IN_TILE_DIM * IN_TILE_DIM>();
  if (row >= 0 && row < height && col >= 0 && col < width) {
    N_s[ty * IN_TILE_DIM + tx] = N[row * width + col];
  } else {
    N_s[ty * IN_TILE_DIM + tx] = 0.0f;
  }
  carbide::block::sync();
  // Calculating output elements
  int tileCol = tx - FILTER_RADIUS;
  int tileRow = ty - FILTER_RADIUS;
  // turning off the threads at the edges of the block
  if (float* p = P.get_mut(own)) {
    float Pvalue = 0.0f;
    for (int fRow = 0; fRow < 2 * FILTER_RADIUS + 1; fRow++) {
      for (int fCol = 0; fCol < 2 * FILTER_RADIUS + 1; fCol++) {
        Pvalue += filter.F_c[fRow][fCol] * N_s[(tileRow + fRow) * IN_TILE_DIM + tileCol + fCol];
      }
    }
    *p = Pvalue;
  }
}

}  // namespace kernels
