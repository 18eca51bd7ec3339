// tile_layernorm.cpp — layer normalization of each row of a 16384 × 4096 bf16 matrix (and of
// 1000 × 3000), y = (x - mean) / sqrt(var + eps) · gamma + beta, bf16 in and out with f32
// statistics, on the Tile path. The row's edge is masked with iota and select so that the
// padding drops out of the variance.
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

#include "../common/sample_check.hpp"

#include <cmath>

namespace ct = carbide::tile;

namespace tile_layernorm {

template <int B>
CARBIDE_TILE_KERNEL
void layernorm(ct::out<ct::bf16, ct::shape<1, B>> y, ct::in<ct::bf16, 2> x, ct::in<ct::bf16, 2> gamma,
               ct::in<ct::bf16, 2> beta, float eps) {
  const int n = x.extent(1);
  auto pg = gamma.partition(ct::shape<1, B>{});
  auto pb = beta.partition(ct::shape<1, B>{});
  auto t = ct::cast<float>(ct::load_like(x, y));
  auto mean = ct::reduce_sum<1>(t) * (1.0f / n);
  auto inside = ct::iota<int, ct::shape<1, B>>() < n;
  auto d = ct::select(inside, t - ct::bcast<1>(mean, t), ct::zeros<float, ct::shape<1, B>>());
  auto inverse = ct::rsqrt(ct::reduce_sum<1>(d * d) * (1.0f / n) + eps);
  auto scaled = d * ct::bcast<1>(inverse, d);
  y.store(ct::cast<ct::bf16>(scaled * ct::cast<float>(pg.load(0, 0)) + ct::cast<float>(pb.load(0, 0))));
}

}  // namespace tile_layernorm

std::vector<ct::bf16> random_bf16(std::size_t n, float low, float high) {
  std::vector<ct::bf16> values;
  for (float v : sample::random_floats(n, low, high)) values.push_back(ct::bf16(v));
  return values;
}

int run(const tile_layernorm::Module& module, const carbide::Stream& stream, std::size_t rows, std::size_t cols) {
  const float eps = 1e-5f;
  const std::vector<ct::bf16> in = random_bf16(rows * cols, -4.f, 4.f), g = random_bf16(cols, 0.5f, 1.5f),
                              b = random_bf16(cols, -1.f, 1.f);
  std::vector<double> expected(in.size());
  for (std::size_t r = 0; r < rows; ++r) {
    double sum = 0, squares = 0;
    for (std::size_t c = 0; c < cols; ++c) sum += float(in[r * cols + c]);
    const double mean = sum / cols;
    for (std::size_t c = 0; c < cols; ++c) squares += (float(in[r * cols + c]) - mean) * (float(in[r * cols + c]) - mean);
    const double inverse = 1 / std::sqrt(squares / cols + eps);
    for (std::size_t c = 0; c < cols; ++c)
      expected[r * cols + c] = (float(in[r * cols + c]) - mean) * inverse * float(g[c]) + float(b[c]);
  }
  const auto x = carbide::Tensor<ct::bf16>::from_host(stream, in, {rows, cols});
  const auto gamma = carbide::Tensor<ct::bf16>::from_host(stream, g, {1, cols});
  const auto beta = carbide::Tensor<ct::bf16>::from_host(stream, b, {1, cols});
  auto y = carbide::Tensor<ct::bf16>::zeroed(stream, {rows, cols});
  auto tiles = std::move(y).partition(ct::shape<1, 4096>{});
  module.layernorm<4096>(stream, tiles, x, gamma, beta, eps);
  y = std::move(tiles).unpartition();
  const std::string what = "tile layernorm (bf16), " + std::to_string(rows) + " x " + std::to_string(cols);
  // The output is rounded to bf16: 2^-9 relative at most.
  return sample::verdict(what.c_str(), sample::relative_error(y.to_host_vec(stream), expected), 4e-3);
}

int main(int argc, char** argv) try {
  auto context = carbide::Context::create_default();  // GPU 0, else the CPU
  const bool small = sample::small_run(argc, argv, context);
  auto stream = context.default_stream();
  const auto module = tile_layernorm::load(context);
  return run(module, stream, small ? 64 : 16384, 4096) | run(module, stream, small ? 33 : 1000, 3000);
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
