// convolution_separable.cpp — port of cuda-samples 2_Concepts_and_Techniques/convolutionSeparable
// (convolutionSeparable.cu): `convolutionRowsKernel` (16 × 4 block, 8 result steps and one halo
// step of 16 columns on each side, staged in `s_Data[4][(8 + 2) * 16]` by a main loop, a
// left-halo loop and a right-halo loop) and `convolutionColumnsKernel` (16 × 8 block, the same
// along columns, `s_Data[16][(8 + 2) * 8 + 1]`). KERNEL_RADIUS = 8. imageW is a multiple of
// 16 · 8 and imageH of 4 (rows kernel) or 8 · 8 (columns kernel), as the sample asserts.
//
// Changed from the textbook:
// - `__constant__ float c_Kernel[KERNEL_LENGTH]` (set by cudaMemcpyToSymbol) → a kernel argument
//   struct `Kernel` (the constant bank, as samples/stencil does);
// - `s_Data[ty][tx + i * 16]` → `s_Data[ty * ROWS_W + tx + i * 16]` (ROWS_W = 160), and for the
//   columns kernel `s_Data[tx][ty + i * 8]` → `s_Data[tx * COLUMNS_H + ty + i * 8]` (COLUMNS_H = 81);
// - `d_Src += baseY * pitch + baseX; … d_Src[i * 16]` (pointer offset) → `d_Src[src0 + i * 16]`
//   with src0 = baseY·pitch + baseX;
// - `d_Dst[i * 16] = sum` for i = HALO … HALO + RESULT − 1: the thread's outputs are columns
//   baseX + 16·i of row baseY, i.e. columns 128·bx + tx + 16·k, k < 8: exactly
//   `get_mut_strided_tile<1, 8>(index_2d())` (for columns: rows 64·by + ty + 8·k,
//   `get_mut_strided_tile<8, 1>`); `mine.store(0, i - HALO, sum)`;
// - `cg::sync(cta)` → `block::sync()`; threadIdx/blockIdx → thread_idx()/block_idx(); the
//   sample's `int` arithmetic kept.
//
// Accepted by `carbide check` with no finding:
// RUN: %carbide check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

constexpr int KERNEL_RADIUS = 8;
constexpr int KERNEL_LENGTH = 2 * KERNEL_RADIUS + 1;

struct Kernel {
  float c_Kernel[KERNEL_LENGTH];
};

constexpr int ROWS_BLOCKDIM_X = 16;
constexpr int ROWS_BLOCKDIM_Y = 4;
constexpr int ROWS_RESULT_STEPS = 8;
constexpr int ROWS_HALO_STEPS = 1;
constexpr int ROWS_W = (ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X;  // 160

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(ROWS_BLOCKDIM_X * ROWS_BLOCKDIM_Y)
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y, 1))
void convolutionRowsKernel(carbide::disjoint_span2d<float> d_Dst, carbide::span<const float> d_Src,
                           int imageW, int imageH, int pitch, Kernel k) {
  auto s_Data = carbide::block::shared<float, ROWS_BLOCKDIM_Y * ROWS_W>();
  auto own = carbide::thread::index_2d();
  const int tx = carbide::thread::thread_idx().x;
  const int ty = carbide::thread::thread_idx().y;

  // Offset to the left halo edge
  const int baseX = (carbide::thread::block_idx().x * ROWS_RESULT_STEPS - ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X + tx;
  const int baseY = carbide::thread::block_idx().y * ROWS_BLOCKDIM_Y + ty;

  const int src0 = baseY * pitch + baseX;

  // Load main data
  for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
    s_Data[ty * ROWS_W + tx + i * ROWS_BLOCKDIM_X] = d_Src[src0 + i * ROWS_BLOCKDIM_X];
  }

  // Load left halo
  for (int i = 0; i < ROWS_HALO_STEPS; i++) {
    s_Data[ty * ROWS_W + tx + i * ROWS_BLOCKDIM_X] =
        (baseX >= -i * ROWS_BLOCKDIM_X) ? d_Src[src0 + i * ROWS_BLOCKDIM_X] : 0;
  }

  // Load right halo
  for (int i = ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS + ROWS_HALO_STEPS; i++) {
    s_Data[ty * ROWS_W + tx + i * ROWS_BLOCKDIM_X] =
        (imageW - baseX > i * ROWS_BLOCKDIM_X) ? d_Src[src0 + i * ROWS_BLOCKDIM_X] : 0;
  }

  // Compute and store results
  carbide::block::sync();

  if (auto mine = d_Dst.get_mut_strided_tile<1, ROWS_RESULT_STEPS>(own)) {
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
      float sum = 0;

      for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++) {
        sum += k.c_Kernel[KERNEL_RADIUS - j] * s_Data[ty * ROWS_W + tx + i * ROWS_BLOCKDIM_X + j];
      }

      mine.store(0, i - ROWS_HALO_STEPS, sum);
    }
  }
  (void)imageH;
}

constexpr int COLUMNS_BLOCKDIM_X = 16;
constexpr int COLUMNS_BLOCKDIM_Y = 8;
constexpr int COLUMNS_RESULT_STEPS = 8;
constexpr int COLUMNS_HALO_STEPS = 1;
constexpr int COLUMNS_H = (COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + 1;  // 81

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(COLUMNS_BLOCKDIM_X * COLUMNS_BLOCKDIM_Y)
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (COLUMNS_BLOCKDIM_X, COLUMNS_BLOCKDIM_Y, 1))
void convolutionColumnsKernel(carbide::disjoint_span2d<float> d_Dst, carbide::span<const float> d_Src,
                              int imageW, int imageH, int pitch, Kernel k) {
  auto s_Data = carbide::block::shared<float, COLUMNS_BLOCKDIM_X * COLUMNS_H>();
  auto own = carbide::thread::index_2d();
  const int tx = carbide::thread::thread_idx().x;
  const int ty = carbide::thread::thread_idx().y;

  // Offset to the upper halo edge
  const int baseX = carbide::thread::block_idx().x * COLUMNS_BLOCKDIM_X + tx;
  const int baseY = (carbide::thread::block_idx().y * COLUMNS_RESULT_STEPS - COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + ty;
  const int src0 = baseY * pitch + baseX;

  // Main data
  for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++) {
    s_Data[tx * COLUMNS_H + ty + i * COLUMNS_BLOCKDIM_Y] = d_Src[src0 + i * COLUMNS_BLOCKDIM_Y * pitch];
  }

  // Upper halo
  for (int i = 0; i < COLUMNS_HALO_STEPS; i++) {
    s_Data[tx * COLUMNS_H + ty + i * COLUMNS_BLOCKDIM_Y] =
        (baseY >= -i * COLUMNS_BLOCKDIM_Y) ? d_Src[src0 + i * COLUMNS_BLOCKDIM_Y * pitch] : 0;
  }

  // Lower halo
  for (int i = COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS;
       i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS + COLUMNS_HALO_STEPS; i++) {
    s_Data[tx * COLUMNS_H + ty + i * COLUMNS_BLOCKDIM_Y] =
        (imageH - baseY > i * COLUMNS_BLOCKDIM_Y) ? d_Src[src0 + i * COLUMNS_BLOCKDIM_Y * pitch] : 0;
  }

  // Compute and store results
  carbide::block::sync();

  if (auto mine = d_Dst.get_mut_strided_tile<COLUMNS_RESULT_STEPS, 1>(own)) {
    for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++) {
      float sum = 0;

      for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++) {
        sum += k.c_Kernel[KERNEL_RADIUS - j] * s_Data[tx * COLUMNS_H + ty + i * COLUMNS_BLOCKDIM_Y + j];
      }

      mine.store(i - COLUMNS_HALO_STEPS, 0, sum);
    }
  }
  (void)imageW;
}

}  // namespace kernels
