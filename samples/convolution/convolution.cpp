// convolution.cpp — a separable 17-tap convolution of a 3072 × 3072 image, as NVIDIA's
// convolutionSeparable sample computes it: a rows pass (16 × 4 blocks, eight result steps and a
// halo of 16 columns each side staged in shared memory), then a columns pass (16 × 8 blocks, the
// same along columns) that reads the rows pass's output on the device. Each thread owns its eight
// outputs through a strided tile (columns tx + 16·k of its row, rows ty + 8·k of its column); the
// taps travel as a kernel argument (the constant bank). KERNEL_RADIUS = 8; imageW is a multiple
// of 16 · 8 and imageH of 8 · 8, as the sample asserts. tests/textbook/convolution_separable.cpp
// checks that `carbide check` accepts these kernels with no finding.
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
//   sample's `int` arithmetic and its `#pragma unroll` on every loop kept (with the taps a
//   kernel argument, an unrolled tap loop reads them from the constant bank by fixed offsets).
#include <carbide/carbide.hpp>

#include "../common/sample_check.hpp"

namespace convolution {

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
  #pragma unroll
  for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
    s_Data[ty * ROWS_W + tx + i * ROWS_BLOCKDIM_X] = d_Src[src0 + i * ROWS_BLOCKDIM_X];
  }

  // Load left halo
  #pragma unroll
  for (int i = 0; i < ROWS_HALO_STEPS; i++) {
    s_Data[ty * ROWS_W + tx + i * ROWS_BLOCKDIM_X] =
        (baseX >= -i * ROWS_BLOCKDIM_X) ? d_Src[src0 + i * ROWS_BLOCKDIM_X] : 0;
  }

  // Load right halo
  #pragma unroll
  for (int i = ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS + ROWS_HALO_STEPS; i++) {
    s_Data[ty * ROWS_W + tx + i * ROWS_BLOCKDIM_X] =
        (imageW - baseX > i * ROWS_BLOCKDIM_X) ? d_Src[src0 + i * ROWS_BLOCKDIM_X] : 0;
  }

  // Compute and store results
  carbide::block::sync();

  if (auto mine = d_Dst.get_mut_strided_tile<1, ROWS_RESULT_STEPS>(own)) {
    #pragma unroll
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
      float sum = 0;

      #pragma unroll
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
  #pragma unroll
  for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++) {
    s_Data[tx * COLUMNS_H + ty + i * COLUMNS_BLOCKDIM_Y] = d_Src[src0 + i * COLUMNS_BLOCKDIM_Y * pitch];
  }

  // Upper halo
  #pragma unroll
  for (int i = 0; i < COLUMNS_HALO_STEPS; i++) {
    s_Data[tx * COLUMNS_H + ty + i * COLUMNS_BLOCKDIM_Y] =
        (baseY >= -i * COLUMNS_BLOCKDIM_Y) ? d_Src[src0 + i * COLUMNS_BLOCKDIM_Y * pitch] : 0;
  }

  // Lower halo
  #pragma unroll
  for (int i = COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS;
       i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS + COLUMNS_HALO_STEPS; i++) {
    s_Data[tx * COLUMNS_H + ty + i * COLUMNS_BLOCKDIM_Y] =
        (imageH - baseY > i * COLUMNS_BLOCKDIM_Y) ? d_Src[src0 + i * COLUMNS_BLOCKDIM_Y * pitch] : 0;
  }

  // Compute and store results
  carbide::block::sync();

  if (auto mine = d_Dst.get_mut_strided_tile<COLUMNS_RESULT_STEPS, 1>(own)) {
    #pragma unroll
    for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++) {
      float sum = 0;

      #pragma unroll
      for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++) {
        sum += k.c_Kernel[KERNEL_RADIUS - j] * s_Data[tx * COLUMNS_H + ty + i * COLUMNS_BLOCKDIM_Y + j];
      }

      mine.store(i - COLUMNS_HALO_STEPS, 0, sum);
    }
  }
  (void)imageW;
}

}  // namespace convolution

namespace {

// The two passes: `rows` gets the rows pass of `image`, `out` the columns pass of `rows`.
void convolve(convolution::Module& module, const carbide::Stream& stream, const carbide::DeviceBuffer<float>& image,
              carbide::DeviceBuffer2D<float>& rows, carbide::DeviceBuffer2D<float>& out, int width, int height,
              const convolution::Kernel& taps) {
  using namespace convolution;
  module.convolutionRowsKernel(
      stream,
      module.prepare_convolutionRowsKernel(carbide::LaunchConfig2D(
          {unsigned(width / (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X)), unsigned(height / ROWS_BLOCKDIM_Y), 1},
          {ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y, 1})),
      rows, image, width, height, width, taps);
  module.convolutionColumnsKernel(
      stream,
      module.prepare_convolutionColumnsKernel(carbide::LaunchConfig2D(
          {unsigned(width / COLUMNS_BLOCKDIM_X), unsigned(height / (COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y)), 1},
          {COLUMNS_BLOCKDIM_X, COLUMNS_BLOCKDIM_Y, 1})),
      out, rows.flat(), width, height, width, taps);
}

// The same two passes in float64 on the host, zero outside the image.
std::vector<double> reference(const std::vector<float>& image, int width, int height, const convolution::Kernel& taps) {
  const int radius = convolution::KERNEL_RADIUS;
  std::vector<double> rows(image.size()), out(image.size());
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      double sum = 0;
      for (int j = -radius; j <= radius; ++j)
        if (x + j >= 0 && x + j < width) sum += double(taps.c_Kernel[radius - j]) * image[std::size_t(y) * width + x + j];
      rows[std::size_t(y) * width + x] = sum;
    }
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      double sum = 0;
      for (int j = -radius; j <= radius; ++j)
        if (y + j >= 0 && y + j < height) sum += double(taps.c_Kernel[radius - j]) * rows[std::size_t(y + j) * width + x];
      out[std::size_t(y) * width + x] = sum;
    }
  return out;
}

}  // namespace

int main(int argc, char** argv) try {
  auto ctx = carbide::Context::create_default();  // GPU 0, else the CPU
  const bool small = sample::small_run(argc, argv, ctx);
  auto stream = ctx.default_stream();
  // 3072 × 3072 as the sample; --small keeps several blocks each way (multiples of 128 and 64).
  const int width = small ? 256 : 3072, height = small ? 128 : 3072;
  const std::vector<float> image = sample::random_floats(std::size_t(width) * height);
  convolution::Kernel taps{};
  const std::vector<float> weights = sample::random_floats(convolution::KERNEL_LENGTH, 0.f, 1.f);
  for (int j = 0; j < convolution::KERNEL_LENGTH; ++j) taps.c_Kernel[j] = weights[j];
  auto image_dev = carbide::DeviceBuffer<float>::from_host(stream, image);
  auto rows = carbide::DeviceBuffer2D<float>::zeroed(stream, height, width);
  auto out = carbide::DeviceBuffer2D<float>::zeroed(stream, height, width);
  auto module = convolution::load(ctx);
  convolve(module, stream, image_dev, rows, out, width, height, taps);
  return sample::verdict("separable convolution, rows then columns on the device",
                         sample::relative_error(out.to_host_vec(stream), reference(image, width, height, taps)), 1e-5);
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
