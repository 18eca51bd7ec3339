// The wgmma + TMA GEMM plan on a real Hopper device, against a float64 CPU product of the same
// bf16 inputs: shapes whose every edge is partial (TMA's zero fill, the store's masks), a single
// row and column block, K of one partial k tile, and whole tiles; fresh random data each run and
// an output poisoned with NaN, so an element never written fails.
#include "hopper_kernels.carbide.hpp"
#include "gpu_test_support.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace {

namespace ct = carbide::tile;

std::vector<ct::bf16> random_bf16(std::size_t n) {
  std::vector<ct::bf16> values;
  for (float v : random_floats(n)) values.push_back(ct::bf16(v));
  return values;
}

// "" where the sm_90a module runs on `ctx`, else why not. The CPU form runs the same tile body on
// any machine; the sm_90a image wants a Hopper.
std::string why_the_module_cannot_run(const carbide::Context& ctx) {
  if (ctx.is_cpu() || ctx.limits().compute_capability == 90) return "";
  return "the module is built for sm_90a, and device 0 has compute capability " +
         std::to_string(ctx.limits().compute_capability);
}

void run_gemm(std::size_t m, std::size_t n, std::size_t k) {
  auto ctx = test_context();
  if (const std::string why = why_the_module_cannot_run(ctx); !why.empty()) GTEST_SKIP() << why;
  auto stream = ctx.default_stream();
  const auto module = gpu_hopper::load(ctx);
  const std::vector<ct::bf16> a_host = random_bf16(m * k), b_host = random_bf16(k * n);
  const auto a = carbide::Tensor<ct::bf16>::from_host(stream, a_host, {m, k});
  const auto b = carbide::Tensor<ct::bf16>::from_host(stream, b_host, {k, n});
  std::vector<ct::bf16> nan(m * n);
  for (ct::bf16& value : nan) value = ct::bf16(std::nanf(""));
  auto tiles = carbide::Tensor<ct::bf16>::from_host(stream, nan, {m, n}).partition(ct::shape<128, 256>{});
  const float alpha = 0.5f;
  module.gemm<128, 256, 64>(stream, tiles, a, b, alpha);
  const std::vector<ct::bf16> got = std::move(tiles).unpartition().to_host_vec(stream);
  double error = 0, norm = 0;
  std::size_t unwritten = 0;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double expected = 0;
      for (std::size_t p = 0; p < k; ++p) expected += double(float(a_host[i * k + p])) * float(b_host[p * n + j]);
      expected *= alpha;
      const double value = float(got[i * n + j]);
      unwritten += std::isnan(value);
      error += (value - expected) * (value - expected);
      norm += expected * expected;
    }
  EXPECT_EQ(unwritten, 0u) << m << " x " << n << " x " << k;
  // bf16 output: 2^-9 relative rounding per element; a wrong layout or mask lands near 1.
  EXPECT_LT(std::sqrt(error / norm), 1e-2) << m << " x " << n << " x " << k;
}

TEST(HopperGemm, EveryEdgePartial) {
  CARBIDE_REQUIRE_DEVICE();
  run_gemm(200, 136, 72);
  run_gemm(129, 264, 40);
}

TEST(HopperGemm, OneRowOneColumnBlockAndOneShortKTile) {
  CARBIDE_REQUIRE_DEVICE();
  run_gemm(1, 8, 8);
  run_gemm(77, 264, 8);
}

TEST(HopperGemm, WholeTilesAndManyKTiles) {
  CARBIDE_REQUIRE_DEVICE();
  run_gemm(256, 512, 64);
  run_gemm(384, 768, 1024);  // 16 k tiles: the stage ring wraps four times
}

// The epilogue of the wgmma plan: loads in the accumulator's layout (a bias row across the
// rows, a residual tile), a function over tiles, and a row reduction stored beside c.
void run_epilogue(std::size_t m, std::size_t n, std::size_t k) {
  auto ctx = test_context();
  if (const std::string why = why_the_module_cannot_run(ctx); !why.empty()) GTEST_SKIP() << why;
  auto stream = ctx.default_stream();
  const auto module = gpu_hopper::load(ctx);
  const std::vector<ct::bf16> a_host = random_bf16(m * k), b_host = random_bf16(k * n), res_host = random_bf16(m * n);
  const std::vector<float> bias_host = random_floats(n);
  const std::size_t column_tiles = (n + 255) / 256;
  std::vector<ct::bf16> nan(m * n, ct::bf16(std::nanf("")));
  auto c = carbide::Tensor<ct::bf16>::from_host(stream, nan, {m, n}).partition(ct::shape<128, 256>{});
  auto row_max = carbide::Tensor<float>::from_host(stream, std::vector<float>(m * column_tiles, std::nanf("")), {m, column_tiles})
                     .partition(ct::shape<128, 1>{});
  module.gemm_epilogue<128, 256, 64>(stream, c, row_max, carbide::Tensor<ct::bf16>::from_host(stream, a_host, {m, k}),
                                     carbide::Tensor<ct::bf16>::from_host(stream, b_host, {k, n}),
                                     carbide::Tensor<float>::from_host(stream, bias_host, {n}),
                                     carbide::Tensor<ct::bf16>::from_host(stream, res_host, {m, n}));
  const std::vector<ct::bf16> got = std::move(c).unpartition().to_host_vec(stream);
  const std::vector<float> maxima = std::move(row_max).unpartition().to_host_vec(stream);
  double error = 0, norm = 0;
  std::size_t unwritten = 0, wrong_max = 0;
  for (std::size_t i = 0; i < m; ++i) {
    std::vector<double> largest(column_tiles, -INFINITY);
    for (std::size_t j = 0; j < n; ++j) {
      double sum = 0;
      for (std::size_t p = 0; p < k; ++p) sum += double(float(a_host[i * k + p])) * float(b_host[p * n + j]);
      largest[j / 256] = std::max(largest[j / 256], sum);
      const double x = sum + bias_host[j];
      const double expected = 0.5 * x * (1 + std::tanh(0.7978845608 * (x + 0.044715 * x * x * x))) + float(res_host[i * n + j]);
      const double value = float(got[i * n + j]);
      unwritten += std::isnan(value);
      error += (value - expected) * (value - expected);
      norm += expected * expected;
    }
    if (n % 256) largest.back() = std::max(largest.back(), 0.0);  // the padding's zeros count
    for (std::size_t t = 0; t < column_tiles; ++t) wrong_max += !(std::abs(maxima[i * column_tiles + t] - largest[t]) < 1e-3);
  }
  EXPECT_EQ(unwritten, 0u) << m << " x " << n << " x " << k;
  EXPECT_LT(std::sqrt(error / norm), 1e-2) << m << " x " << n << " x " << k;
  EXPECT_EQ(wrong_max, 0u) << m << " x " << n << " x " << k;
}

TEST(HopperGemm, EpilogueWithBiasGeluResidualAndRowMaxima) {
  CARBIDE_REQUIRE_DEVICE();
  run_epilogue(200, 264, 72);
  run_epilogue(256, 512, 128);
}

}  // namespace
