// The Tile path's second vocabulary on a real device: each kernel of tile_language_kernels.cpp
// against a float64 CPU reference of the same inputs, fresh random data each run and outputs
// poisoned with NaN, so an element never written fails; shapes with partial edges everywhere.
#include "gpu_test_support.hpp"
#include "tile_language_kernels.carbide.hpp"
#include "tile_language_types.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace {

namespace ct = carbide::tile;
namespace kernels = gpu_tile_language;

std::vector<ct::bf16> random_bf16(std::size_t n) {
  std::vector<ct::bf16> values;
  for (float v : random_floats(n)) values.push_back(ct::bf16(v));
  return values;
}
template <class T>
std::vector<T> nan_filled(std::size_t n) {
  return std::vector<T>(n, T(std::nanf("")));
}
template <class T>
double value(T x) {
  return double(float(x));
}

// ‖got − expected‖₂ / ‖expected‖₂ over every element, and the elements never written (NaN).
struct Comparison {
  double relative = 0;
  std::size_t unwritten = 0;
};
template <class T>
Comparison compare(const std::vector<T>& got, const std::vector<double>& expected) {
  double error = 0, norm = 0;
  Comparison result;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double x = value(got[i]);
    if (std::isnan(x)) {
      ++result.unwritten;
      continue;
    }
    error += (x - expected[i]) * (x - expected[i]);
    norm += expected[i] * expected[i];
  }
  result.relative = std::sqrt(error / std::max(norm, 1e-300));
  return result;
}
#define EXPECT_CLOSE(got, expected, tolerance, what)           \
  do {                                                         \
    const Comparison comparison_ = compare(got, expected);     \
    EXPECT_EQ(comparison_.unwritten, 0u) << what;              \
    EXPECT_LT(comparison_.relative, tolerance) << what;        \
  } while (false)

struct Device {
  carbide::Context context = test_context();
  carbide::Stream stream = context.default_stream();
  kernels::Module module = kernels::load(context);
};

double gelu(double x) { return 0.5 * x * (1 + std::tanh(0.7978845608 * (x + 0.044715 * x * x * x))); }

TEST(TileLanguage, RmsnormSpreadsItsWeightRowWithBcast0) {
  CARBIDE_REQUIRE_DEVICE();
  Device device;
  for (auto [rows, cols] : {std::pair<std::size_t, std::size_t>{300, 4096}, {77, 3000}}) {
    const auto x = random_bf16(rows * cols), w = random_bf16(cols);
    auto y = carbide::Tensor<ct::bf16>::from_host(device.stream, nan_filled<ct::bf16>(rows * cols), {rows, cols})
                 .partition(ct::shape<1, 4096>{});
    device.module.rmsnorm<4096>(device.stream, y, carbide::Tensor<ct::bf16>::from_host(device.stream, x, {rows, cols}),
                                carbide::Tensor<ct::bf16>::from_host(device.stream, w, {cols}), 1e-6f);
    std::vector<double> expected(rows * cols);
    for (std::size_t r = 0; r < rows; ++r) {
      double squares = 0;
      for (std::size_t c = 0; c < cols; ++c) squares += value(x[r * cols + c]) * value(x[r * cols + c]);
      const double inverse = 1 / std::sqrt(squares / double(cols) + 1e-6);
      for (std::size_t c = 0; c < cols; ++c) expected[r * cols + c] = value(x[r * cols + c]) * inverse * value(w[c]);
    }
    EXPECT_CLOSE(std::move(y).unpartition().to_host_vec(device.stream), expected, 1e-2, rows << " x " << cols);
  }
}

TEST(TileLanguage, BiasAndGeluThroughAFunctionOverTiles) {
  CARBIDE_REQUIRE_DEVICE();
  Device device;
  const std::size_t rows = 203, cols = 1000;
  const auto x = random_bf16(rows * cols);
  const auto bias = random_floats(cols);
  auto y = carbide::Tensor<ct::bf16>::from_host(device.stream, nan_filled<ct::bf16>(rows * cols), {rows, cols})
               .partition(ct::shape<4, 256>{});
  device.module.bias_gelu<4, 256>(device.stream, y, carbide::Tensor<ct::bf16>::from_host(device.stream, x, {rows, cols}),
                                  carbide::Tensor<float>::from_host(device.stream, bias, {cols}));
  std::vector<double> expected(rows * cols);
  for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = gelu(value(x[i]) + bias[i % cols]);
  EXPECT_CLOSE(std::move(y).unpartition().to_host_vec(device.stream), expected, 1e-2, "bias + gelu");
}

template <kernels::Activation A>
void run_gemm_epilogue(Device& device, std::size_t m, std::size_t n, std::size_t k) {
  const auto a = random_bf16(m * k), b = random_bf16(k * n), res = random_bf16(m * n);
  const auto bias = random_floats(n);
  const std::size_t column_tiles = (n + 127) / 128;
  auto c = carbide::Tensor<ct::bf16>::from_host(device.stream, nan_filled<ct::bf16>(m * n), {m, n}).partition(ct::shape<128, 128>{});
  auto row_max = carbide::Tensor<float>::from_host(device.stream, nan_filled<float>(m * column_tiles), {m, column_tiles})
                     .partition(ct::shape<128, 1>{});
  device.module.gemm_epilogue<128, 128, 32, A>(device.stream, c, row_max,
                                               carbide::Tensor<ct::bf16>::from_host(device.stream, a, {m, k}),
                                               carbide::Tensor<ct::bf16>::from_host(device.stream, b, {k, n}),
                                               carbide::Tensor<float>::from_host(device.stream, bias, {n}),
                                               carbide::Tensor<ct::bf16>::from_host(device.stream, res, {m, n}));
  std::vector<double> expected(m * n), largest(m * column_tiles, -INFINITY);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double sum = 0;
      for (std::size_t p = 0; p < k; ++p) sum += value(a[i * k + p]) * value(b[p * n + j]);
      const double x = sum + bias[j];
      expected[i * n + j] = (A == kernels::Activation::Gelu ? gelu(x) : std::max(x, 0.0)) + value(res[i * n + j]);
      largest[i * column_tiles + j / 128] = std::max(largest[i * column_tiles + j / 128], sum);
    }
  // A partial column tile also holds the zeros of its padding, which the reduction sees.
  if (n % 128)
    for (std::size_t i = 0; i < m; ++i) largest[i * column_tiles + column_tiles - 1] = std::max(largest[i * column_tiles + column_tiles - 1], 0.0);
  EXPECT_CLOSE(std::move(c).unpartition().to_host_vec(device.stream), expected, 1e-2, m << " x " << n << " x " << k);
  EXPECT_CLOSE(std::move(row_max).unpartition().to_host_vec(device.stream), largest, 1e-5, "row maxima");
}

TEST(TileLanguage, GemmEpilogueReadsBiasAndResidualAndReducesTheAccumulator) {
  CARBIDE_REQUIRE_DEVICE();
  Device device;
  run_gemm_epilogue<kernels::Activation::Gelu>(device, 200, 264, 72);
  run_gemm_epilogue<kernels::Activation::Relu>(device, 256, 256, 64);
}

TEST(TileLanguage, RowArgmaxCarriesRowStateAcrossColumnTiles) {
  CARBIDE_REQUIRE_DEVICE();
  Device device;
  const std::size_t rows = 1001, cols = 3000;
  const auto x = random_floats(rows * cols);
  auto where = carbide::Tensor<int>::from_host(device.stream, std::vector<int>(rows, -1), {rows}).partition(ct::shape<4>{});
  device.module.row_argmax<4, 512>(device.stream, where, carbide::Tensor<float>::from_host(device.stream, x, {rows, cols}));
  const std::vector<int> got = std::move(where).unpartition().to_host_vec(device.stream);
  std::size_t wrong = 0;
  for (std::size_t r = 0; r < rows; ++r)
    wrong += got[r] != int(std::max_element(x.begin() + r * cols, x.begin() + (r + 1) * cols) - (x.begin() + r * cols));
  EXPECT_EQ(wrong, 0u);
}

TEST(TileLanguage, BatchedGemmInOneLaunch) {
  CARBIDE_REQUIRE_DEVICE();
  Device device;
  const std::size_t batch = 3, m = 200, n = 136, k = 72;
  const auto a = random_bf16(batch * m * k), b = random_bf16(batch * k * n);
  auto c = carbide::Tensor<ct::bf16>::from_host(device.stream, nan_filled<ct::bf16>(batch * m * n), {batch, m, n})
               .partition(ct::shape<1, 128, 128>{});
  device.module.batched_gemm<128, 128, 32>(device.stream, c, carbide::Tensor<ct::bf16>::from_host(device.stream, a, {batch, m, k}),
                                           carbide::Tensor<ct::bf16>::from_host(device.stream, b, {batch, k, n}));
  std::vector<double> expected(batch * m * n);
  for (std::size_t z = 0; z < batch; ++z)
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        double sum = 0;
        for (std::size_t p = 0; p < k; ++p) sum += value(a[(z * m + i) * k + p]) * value(b[(z * k + p) * n + j]);
        expected[(z * m + i) * n + j] = sum;
      }
  EXPECT_CLOSE(std::move(c).unpartition().to_host_vec(device.stream), expected, 1e-2, "batched");
}

TEST(TileLanguage, ScoresAndRowSoftmaxWithTheKeysPastTheEndMasked) {
  CARBIDE_REQUIRE_DEVICE();
  Device device;
  const std::size_t m = 150, keys = 100, d = 64;
  const auto q = random_bf16(m * d), k = random_bf16(keys * d);
  auto p = carbide::Tensor<float>::from_host(device.stream, nan_filled<float>(m * keys), {m, keys}).partition(ct::shape<64, 128>{});
  device.module.scores_softmax<64, 128, 64>(device.stream, p, carbide::Tensor<ct::bf16>::from_host(device.stream, q, {m, d}),
                                            carbide::Tensor<ct::bf16>::from_host(device.stream, k, {keys, d}), 0.125f);
  std::vector<double> expected(m * keys);
  for (std::size_t i = 0; i < m; ++i) {
    double largest = -INFINITY, sum = 0;
    for (std::size_t j = 0; j < keys; ++j) {
      double dot = 0;
      for (std::size_t e = 0; e < d; ++e) dot += value(q[i * d + e]) * value(k[j * d + e]);
      expected[i * keys + j] = dot * 0.125;
      largest = std::max(largest, expected[i * keys + j]);
    }
    for (std::size_t j = 0; j < keys; ++j) sum += expected[i * keys + j] = std::exp(expected[i * keys + j] - largest);
    for (std::size_t j = 0; j < keys; ++j) expected[i * keys + j] /= sum;
  }
  EXPECT_CLOSE(std::move(p).unpartition().to_host_vec(device.stream), expected, 1e-5, "softmax of scores");
}

template <int D, bool Causal>
void run_attention(Device& device, std::size_t heads, std::size_t n) {
  const std::size_t count = heads * n * D;
  const auto q = random_bf16(count), k = random_bf16(count), v = random_bf16(count);
  auto o = carbide::Tensor<ct::bf16>::from_host(device.stream, nan_filled<ct::bf16>(count), {heads, n, std::size_t(D)})
               .partition(ct::shape<1, 64, D>{});
  const float scale = 1.f / std::sqrt(float(D));
  device.module.attention<64, 64, D, Causal>(device.stream, o, carbide::Tensor<ct::bf16>::from_host(device.stream, q, {heads, n, std::size_t(D)}),
                                             carbide::Tensor<ct::bf16>::from_host(device.stream, k, {heads, n, std::size_t(D)}),
                                             carbide::Tensor<ct::bf16>::from_host(device.stream, v, {heads, n, std::size_t(D)}), scale);
  std::vector<double> expected(count), weights(n);
  for (std::size_t h = 0; h < heads; ++h)
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t keys = Causal ? i + 1 : n, row = (h * n + i) * D;
      double largest = -INFINITY, sum = 0;
      for (std::size_t j = 0; j < keys; ++j) {
        double dot = 0;
        for (int e = 0; e < D; ++e) dot += value(q[row + e]) * value(k[(h * n + j) * D + e]);
        largest = std::max(largest, weights[j] = dot * scale);
      }
      for (std::size_t j = 0; j < keys; ++j) sum += weights[j] = std::exp(weights[j] - largest);
      for (int e = 0; e < D; ++e) {
        double total = 0;
        for (std::size_t j = 0; j < keys; ++j) total += weights[j] * value(v[(h * n + j) * D + e]);
        expected[row + e] = total / sum;
      }
    }
  EXPECT_CLOSE(std::move(o).unpartition().to_host_vec(device.stream), expected, 1e-2,
               (Causal ? "causal, " : "") << heads << " heads x " << n << " x " << D);
}

TEST(TileLanguage, AttentionCausalAndNotWithPartialTiles) {
  CARBIDE_REQUIRE_DEVICE();
  Device device;
  run_attention<64, true>(device, 3, 200);
  run_attention<64, true>(device, 1, 64);
  run_attention<128, false>(device, 2, 130);
  run_attention<128, false>(device, 1, 1);
}

TEST(TileLanguage, TheFourFormsCheckPassedAndNvccRefused) {
  CARBIDE_REQUIRE_DEVICE();
  Device device;
  const std::size_t rows = 10, cols = 300;
  const auto x = random_floats(rows * cols), w = random_floats(cols);
  const auto x_tensor = carbide::Tensor<float>::from_host(device.stream, x, {rows, cols});
  auto y = carbide::Tensor<float>::from_host(device.stream, poisoned(rows * cols), {rows, cols}).partition(ct::shape<4, 128>{});
  device.module.scale_columns(device.stream, y, x_tensor, carbide::Tensor<float>::from_host(device.stream, w, {cols}));
  std::vector<double> scaled(rows * cols), shifted(rows * cols), sums(rows, 0.0);
  for (std::size_t i = 0; i < rows * cols; ++i) scaled[i] = double(x[i]) * w[i % cols];
  EXPECT_CLOSE(std::move(y).unpartition().to_host_vec(device.stream), scaled, 1e-6, "bcast<0> of a loaded row");

  // Each row's shift is the largest of its 128-column tile (zero padding past the edge included), if positive.
  y = carbide::Tensor<float>::from_host(device.stream, poisoned(rows * cols), {rows, cols}).partition(ct::shape<4, 128>{});
  device.module.shift_rows(device.stream, y, x_tensor);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t tile = 0; tile < cols; tile += 128) {
      double largest = tile + 128 > cols ? 0.0 : -INFINITY;
      for (std::size_t c = tile; c < std::min(cols, tile + 128); ++c) largest = std::max(largest, double(x[r * cols + c]));
      for (std::size_t c = tile; c < std::min(cols, tile + 128); ++c) shifted[r * cols + c] = x[r * cols + c] - std::max(largest, 0.0);
    }
  EXPECT_CLOSE(std::move(y).unpartition().to_host_vec(device.stream), shifted, 1e-6, "select of a reduction and a full tile");

  const std::size_t narrow = 128;
  const auto x_narrow = random_floats(rows * narrow);
  auto s = carbide::Tensor<float>::from_host(device.stream, poisoned(rows), {rows}).partition(ct::shape<4>{});
  device.module.row_sums(device.stream, s, carbide::Tensor<float>::from_host(device.stream, x_narrow, {rows, narrow}));
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < narrow; ++c) sums[r] += x_narrow[r * narrow + c];
  EXPECT_CLOSE(std::move(s).unpartition().to_host_vec(device.stream), sums, 1e-5, "a reduction stored");

  const std::size_t m = 130, n = 200, k = 64;
  const auto a = random_bf16(m * k), b = random_bf16(k * n);
  auto c = carbide::Tensor<float>::from_host(device.stream, poisoned(m * n), {m, n}).partition(ct::shape<128, 128>{});
  device.module.gemm_relu(device.stream, c, carbide::Tensor<ct::bf16>::from_host(device.stream, a, {m, k}),
                          carbide::Tensor<ct::bf16>::from_host(device.stream, b, {k, n}));
  std::vector<double> relu(m * n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double sum = 0;
      for (std::size_t p = 0; p < k; ++p) sum += value(a[i * k + p]) * value(b[p * n + j]);
      relu[i * n + j] = std::max(sum, 0.0);
    }
  EXPECT_CLOSE(std::move(c).unpartition().to_host_vec(device.stream), relu, 1e-5, "zeros in a GEMM epilogue");
}

TEST(TileLanguage, ColumnMeansAndATransposeThroughSharedMemory) {
  CARBIDE_REQUIRE_DEVICE();
  Device device;
  const std::size_t rows = 70, cols = 100;  // x is rows × cols, y its transpose
  const auto x = random_floats(rows * cols);
  auto y = carbide::Tensor<float>::from_host(device.stream, poisoned(rows * cols), {cols, rows}).partition(ct::shape<64, 32>{});
  device.module.centered_transpose(device.stream, y, carbide::Tensor<float>::from_host(device.stream, x, {rows, cols}));
  std::vector<double> expected(rows * cols);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      // The mean over the 32 rows of x's tile holding row i (padding rows read 0 and count).
      const std::size_t first = i / 32 * 32;
      double sum = 0;
      for (std::size_t r = first; r < std::min(rows, first + 32); ++r) sum += x[r * cols + j];
      expected[j * rows + i] = x[i * cols + j] - sum / 32;
    }
  EXPECT_CLOSE(std::move(y).unpartition().to_host_vec(device.stream), expected, 1e-5, "transpose of centered columns");
}

TEST(TileLanguage, ExchangesBetweenLayoutsThroughSharedMemory) {
  CARBIDE_REQUIRE_DEVICE();
  Device device;
  const std::size_t m = 100, k = 64;
  const auto a = random_bf16(m * k);
  const auto x = random_floats(m * m);
  auto y = carbide::Tensor<float>::from_host(device.stream, poisoned(m * m), {m, m}).partition(ct::shape<64, 64>{});
  device.module.exchanges(device.stream, y, carbide::Tensor<ct::bf16>::from_host(device.stream, a, {m, k}),
                          carbide::Tensor<float>::from_host(device.stream, x, {m, m}));
  // s = A·Aᵀ; each element of a 64 × 64 tile of s scaled by the sum of the tile's row numbered
  // by its column (rows and columns past m are zero: padding), plus 2x.
  const auto s = [&](std::size_t r, std::size_t c) {
    if (r >= m || c >= m) return 0.0;
    double dot = 0;
    for (std::size_t p = 0; p < k; ++p) dot += value(a[r * k + p]) * value(a[c * k + p]);
    return dot;
  };
  std::vector<double> expected(m * m);
  for (std::size_t r = 0; r < m; ++r)
    for (std::size_t c = 0; c < m; ++c) {
      const std::size_t first = c / 64 * 64;  // the tile's columns
      double row_sum = 0;                      // row (first + c % 64) of s, over the tile's columns
      for (std::size_t q = 0; q < 64; ++q) row_sum += s(r / 64 * 64 + c % 64, first + q);
      expected[r * m + c] = s(r, c) * row_sum + 2.0 * x[r * m + c];
    }
  EXPECT_CLOSE(std::move(y).unpartition().to_host_vec(device.stream), expected, 1e-4, "row sums along columns");

  const std::size_t batch = 3, rows = 6, cols = 40;
  const auto t = random_floats(batch * rows * cols);
  auto z = carbide::Tensor<float>::from_host(device.stream, poisoned(t.size()), {batch, rows, cols})
               .partition(ct::shape<2, 4, 32>{});
  device.module.middle_axis(device.stream, z, carbide::Tensor<float>::from_host(device.stream, t, {batch, rows, cols}));
  std::vector<double> shifted(t.size());
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c) {
        const std::size_t first = r / 4 * 4;
        double largest = first + 4 > rows ? 0.0 : -INFINITY;  // padding rows read 0
        for (std::size_t q = first; q < std::min(rows, first + 4); ++q) largest = std::max(largest, double(t[(b * rows + q) * cols + c]));
        shifted[(b * rows + r) * cols + c] = t[(b * rows + r) * cols + c] - largest;
      }
  EXPECT_CLOSE(std::move(z).unpartition().to_host_vec(device.stream), shifted, 1e-6, "a middle axis");
}

}  // namespace
