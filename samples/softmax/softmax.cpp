// softmax.cpp — the softmax of each row of a 16384 × 4096 float matrix: one block of 512 threads
// per row, each thread owning two four-float pieces of it half a row apart (columns 4t … and
// 2048 + 4t …), so that each load and store instruction of a warp covers 512 contiguous bytes;
// the row's maximum and sum through warp shuffles and one shared slot per warp.
#include <carbide/carbide.hpp>

#include "../common/sample_check.hpp"

#include <cmath>
#include <limits>

namespace softmax {

constexpr unsigned kBlock = 512;
constexpr int kPiece = 4;
constexpr unsigned kCols = 2 * kBlock * kPiece;   // a row is exactly two pieces per thread
constexpr unsigned kHalfRow = kCols / 2;          // 2048
constexpr unsigned kWarps = kBlock / 32;

// Row r is block r (the grid's y). `out` is the matrix seen as 2 · rows half-rows of 2048
// columns: the 2 × 4 tile of thread (r, t) in that view is columns 4t … of row r's first half
// and the same columns of its second half, the two pieces the thread computes.
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kBlock, 4)  // four blocks per SM: 32 registers a thread
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (kBlock, 1, 1))
void softmax(carbide::span<const float> in, carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d();
  auto lid = carbide::thread::local_index();
  auto lane = carbide::thread::lane();
  const std::size_t first_piece = own.row() * (kCols / kPiece) + own.col();  // in pieces of `in`
  const auto left = in.whole_chunk<kPiece>(first_piece);
  const auto right = in.whole_chunk<kPiece>(first_piece + kHalfRow / kPiece);
  float x[2 * kPiece];
  for (int j = 0; j < kPiece; ++j) x[j] = left[j], x[kPiece + j] = right[j];

  float largest = x[0];
  for (int j = 1; j < 2 * kPiece; ++j) largest = std::fmax(largest, x[j]);
  for (unsigned mask = 16; mask > 0; mask >>= 1)
    largest = std::fmax(largest, carbide::warp::shfl_xor(largest, mask));
  auto warp_maxima = carbide::block::shared<float, kWarps>();
  if (lane.get() == 0) warp_maxima[lid.get() / 32] = largest;
  carbide::block::sync();
  for (unsigned w = 0; w < kWarps; ++w) largest = std::fmax(largest, warp_maxima[w]);

  float sum = 0.f;
  for (int j = 0; j < 2 * kPiece; ++j) {
    x[j] = std::exp(x[j] - largest);
    sum += x[j];
  }
  sum = carbide::warp::reduce_add(sum);
  auto warp_sums = carbide::block::shared<float, kWarps>();
  if (lane.get() == 0) warp_sums[lid.get() / 32] = sum;
  carbide::block::sync();
  float total = 0.f;
  for (unsigned w = 0; w < kWarps; ++w) total += warp_sums[w];

  if (auto mine = out.get_mut_tile<2, kPiece>(own)) {
    const float inverse = 1.f / total;
    carbide::vec<float, kPiece> first_half, second_half;
    for (int j = 0; j < kPiece; ++j) first_half[j] = x[j] * inverse, second_half[j] = x[kPiece + j] * inverse;
    mine.store_row(0, first_half);
    mine.store_row(1, second_half);
  }
}

}  // namespace softmax

int main(int argc, char** argv) try {
  auto ctx = carbide::Context::create_default();  // GPU 0, else the CPU
  const bool small = sample::small_run(argc, argv, ctx);
  auto stream = ctx.default_stream();
  const std::size_t rows = small ? 64 : 16384, cols = softmax::kCols;
  const std::vector<float> in = sample::random_floats(rows * cols, -8.f, 8.f);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream, in);
  // The output as the kernel sees it: each row as two half-rows (the same bytes, row-major).
  auto out_dev = carbide::DeviceBuffer2D<float>::from_host(
      stream, std::vector<float>(in.size(), std::numeric_limits<float>::quiet_NaN()), 2 * rows, softmax::kHalfRow);
  auto module = softmax::load(ctx);
  auto prepared = module.prepare_softmax(carbide::LaunchConfig2D({1, unsigned(rows), 1}, {softmax::kBlock, 1, 1}));
  module.softmax(stream, prepared, in_dev, out_dev);

  return sample::verdict("row softmax of 4096-float rows",
                         sample::relative_error(out_dev.to_host_vec(stream), sample::row_softmax(in, rows, cols)), 1e-5);
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
