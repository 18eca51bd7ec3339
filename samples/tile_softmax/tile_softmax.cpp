// tile_softmax.cpp — the softmax of each row of a 16384 × 4096 float matrix (and of 1000 × 3000,
// whose rows end inside their tile) on the Tile path: one tile block per row, the row's edge
// padded with -inf so it drops out of the maximum and the sum. The translator places the
// reductions' shuffles, shared scratch and barriers.
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

#include "../common/sample_check.hpp"

#include <cmath>

namespace ct = carbide::tile;

namespace tile_softmax {

template <int B>
CARBIDE_TILE_KERNEL
void softmax_rows(ct::out<float, ct::shape<1, B>> y, ct::in<float, 2> x) {
  auto t = ct::load_like(x, y, ct::pad(-INFINITY));
  auto e = ct::exp(t - ct::bcast<1>(ct::reduce_max<1>(t), t));
  y.store(e / ct::bcast<1>(ct::reduce_sum<1>(e), e));
}

}  // namespace tile_softmax

int run(const tile_softmax::Module& module, const carbide::Stream& stream, std::size_t rows, std::size_t cols) {
  const std::vector<float> in = sample::random_floats(rows * cols, -8.f, 8.f);
  const std::vector<double> expected = sample::row_softmax(in, rows, cols);
  const auto x = carbide::Tensor<float>::from_host(stream, in, {rows, cols});
  auto y = carbide::Tensor<float>::zeroed(stream, {rows, cols});
  auto tiles = std::move(y).partition(ct::shape<1, 4096>{});
  module.softmax_rows<4096>(stream, tiles, x);
  y = std::move(tiles).unpartition();
  const std::string what = "tile row softmax, " + std::to_string(rows) + " x " + std::to_string(cols);
  return sample::verdict(what.c_str(), sample::relative_error(y.to_host_vec(stream), expected), 1e-5);
}

int main(int argc, char** argv) try {
  auto context = carbide::Context::create_default();  // GPU 0, else the CPU
  const bool small = sample::small_run(argc, argv, context);
  auto stream = context.default_stream();
  const auto module = tile_softmax::load(context);
  return run(module, stream, small ? 64 : 16384, 4096) | run(module, stream, small ? 33 : 1000, 3000);
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
