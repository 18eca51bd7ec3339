// The wgmma + TMA GEMM plan on a real Hopper device, against a float64 CPU product of the same
// bf16 inputs: shapes whose every edge is partial (TMA's zero fill, the store's masks), a single
// row and column block, K of one partial k tile, and whole tiles; fresh random data each run and
// an output poisoned with NaN, so an element never written fails.
#include "hopper_kernels.carbide.hpp"
#include "gpu_test_support.hpp"

#include <cmath>
#include <vector>

namespace {

namespace ct = carbide::tile;

std::vector<ct::bf16> random_bf16(std::size_t n) {
  std::vector<ct::bf16> values;
  for (float v : random_floats(n)) values.push_back(ct::bf16(v));
  return values;
}

void run_gemm(std::size_t m, std::size_t n, std::size_t k) {
  auto ctx = test_context();
  // The CPU form runs the same tile body on any machine; the sm_90a image wants a Hopper.
  if (!ctx.is_cpu() && ctx.limits().compute_capability != 90)
    GTEST_SKIP() << "the module is built for sm_90a, and device 0 has compute capability "
                 << ctx.limits().compute_capability;
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

}  // namespace
