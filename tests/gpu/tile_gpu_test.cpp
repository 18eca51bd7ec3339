// Whole launches on a real device: the stub picks the entry without edge tests only when every
// tile the kernel touches is whole, and both entries compute what the kernel says, against a CPU
// reference on fresh random data.
#include "gpu_kernels.carbide.hpp"
#include "gpu_test_support.hpp"

#include <cmath>
#include <vector>

namespace {

namespace ct = carbide::tile;

// y = x · w row by row, where w has `weights` columns and reads as 0 past them (the padding).
std::vector<float> scaled_rows(const std::vector<float>& x, const std::vector<float>& w, std::size_t cols) {
  std::vector<float> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::size_t col = i % cols;
    y[i] = x[i] * (col < w.size() ? w[col] : 0.f);
  }
  return y;
}

void run_scale_rows(std::size_t rows, std::size_t cols, std::size_t weights) {
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const auto module = gpu_tiles::load(ctx);
  const auto x = carbide::Tensor<float>::from_host(stream, random_floats(rows * cols), {rows, cols});
  const auto w = carbide::Tensor<float>::from_host(stream, random_floats(weights), {1, weights});
  auto y = carbide::Tensor<float>::from_host(stream, poisoned(rows * cols), {rows, cols});
  auto tiles = std::move(y).partition(ct::shape<1, 512>{});
  module.scale_rows(stream, tiles, x, w);
  y = std::move(tiles).unpartition();
  const std::vector<float> expected = scaled_rows(x.to_host_vec(stream), w.to_host_vec(stream), cols);
  const std::vector<float> got = y.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) wrong += got[i] != expected[i];
  EXPECT_EQ(wrong, 0u) << rows << " x " << cols << " rows, " << weights << " weights";
}

// Every tile whole: the whole entry, every element x · w.
TEST(WholeLaunch, WholeTilesRunTheEntryWithoutEdgeTests) {
  CARBIDE_REQUIRE_DEVICE();
  run_scale_rows(3000, 512, 512);
}

// Rows shorter than a tile, and a row of weights shorter than its tile: the masked entry, and the
// elements past the weights read the padding. The whole entry would read past w here.
TEST(WholeLaunch, PartialTilesRunTheMaskedEntry) {
  CARBIDE_REQUIRE_DEVICE();
  run_scale_rows(77, 500, 500);
  run_scale_rows(64, 512, 256);
}

}  // namespace
