// <carbide/tile.hpp>'s reference semantics, as a host compiler runs them: the edge of a tile reads
// as padding and is not written, reductions remove their axis, bcast puts it back, mma multiplies
// with f32 accumulation. These are the meanings the translator's lowering must keep.
#include <carbide/tile.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

namespace ct = carbide::tile;

TEST(TileReference, EdgeTilesReadPaddingAndStoreOnlyInside) {
  std::vector<float> x(3 * 5), y(3 * 5, -1.f);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(i);
  ct::out<float, ct::shape<2, 4>> edge(y.data(), {3, 5}, {1, 1});  // rows 2..3, columns 4..7
  const auto t = ct::load_like(ct::in<float, 2>(x.data(), {3, 5}), edge, ct::pad(100.f));
  EXPECT_EQ(t[0], 14.f);   // (2, 4), the one element inside
  EXPECT_EQ(t[1], 100.f);  // (2, 5): outside
  EXPECT_EQ(t[4], 100.f);  // (3, 4): outside
  edge.store(t + 1.f);
  EXPECT_EQ(y[14], 15.f);
  for (std::size_t i = 0; i < 14; ++i) EXPECT_EQ(y[i], -1.f) << i;
}

TEST(TileReference, SoftmaxOfARowSumsToOne) {
  std::vector<float> x = {1, 2, 3, 4, 5, 6}, y(6);
  ct::out<float, ct::shape<1, 8>> row(y.data(), {1, 6}, {0, 0});
  const auto t = ct::load_like(ct::in<float, 2>(x.data(), {1, 6}), row, ct::pad(-INFINITY));
  const auto e = ct::exp(t - ct::bcast<1>(ct::reduce_max<1>(t), t));
  row.store(e / ct::bcast<1>(ct::reduce_sum<1>(e), e));
  double sum = 0;
  for (float v : y) sum += v;
  EXPECT_NEAR(sum, 1.0, 1e-6);
  EXPECT_NEAR(y[5] / y[4], std::exp(1.0), 1e-5);
}

// An integer has no infinity (numeric_limits gives 0): max starts at its lowest value and min at
// its largest, so all-negative maxima and all-positive minima are right, as on the GPU.
TEST(TileReference, IntegerMaximaAndMinimaStartAtTheTypesExtremes) {
  const auto t = ct::iota<int, ct::shape<2, 3>>();  // 0 1 2 / 3 4 5
  const auto negative = -t - ct::full<int, ct::shape<2, 3>>(1);  // -1 -2 -3 / -4 -5 -6
  EXPECT_EQ(ct::reduce_max<1>(negative)[0], -1);
  EXPECT_EQ(ct::reduce_max<1>(negative)[1], -4);
  const auto positive = t + ct::full<int, ct::shape<2, 3>>(1);  // 1 2 3 / 4 5 6
  EXPECT_EQ(ct::reduce_min<1>(positive)[0], 1);
  EXPECT_EQ(ct::reduce_min<0>(positive)[2], 3);
}

TEST(TileReference, ReductionsRemoveTheirAxis) {
  const auto t = ct::iota<float, ct::shape<2, 3>>();  // 0 1 2 / 3 4 5
  const ct::tile<float, ct::shape<2>> rows = ct::reduce_sum<1>(t);
  const ct::tile<float, ct::shape<3>> columns = ct::reduce_max<0>(t);
  EXPECT_EQ(rows[0], 3.f);
  EXPECT_EQ(rows[1], 12.f);
  EXPECT_EQ(columns[2], 5.f);
  EXPECT_EQ(ct::reduce_min<1>(t)[1], 3.f);
  EXPECT_EQ(ct::bcast<0>(columns, t)[4], 4.f);  // column 1 of row 1
}

TEST(TileReference, SixteenBitTilesComputeInFloatAndRoundOnce) {
  const auto a = ct::full<ct::bf16, ct::shape<4>>(ct::bf16(1.f));
  const auto b = ct::full<ct::bf16, ct::shape<4>>(ct::bf16(0.00390625f));  // 2^-8: 1 + 2^-8 rounds to 1 in bf16
  EXPECT_EQ(float((a + b)[0]), 1.f);
  EXPECT_EQ(float(ct::cast<float>(a + b)[0]), 1.f);
  EXPECT_EQ((ct::cast<float>(a) + ct::cast<float>(b))[0], 1.00390625f);
}

TEST(TileReference, MmaAccumulatesInFloat) {
  ct::tile<ct::bf16, ct::shape<2, 3>> a;
  ct::tile<ct::bf16, ct::shape<3, 2>> b;
  for (int i = 0; i < 6; ++i) a[i] = ct::bf16(float(i)), b[i] = ct::bf16(float(i % 2));
  const auto c = ct::mma(a, b, ct::full<float, ct::shape<2, 2>>(0.5f));
  EXPECT_EQ(c[0], 0.5f);            // row 0 · column 0 = 0
  EXPECT_EQ(c[1], 0.5f + 0 + 1 + 2);  // row 0 · column 1 = 0 + 1 + 2
  EXPECT_EQ(c[3], 0.5f + 3 + 4 + 5);
}

}  // namespace

// The ops of the Tile path's second vocabulary, and whole kernels built from them, run as a host
// compiler runs them: one call of the kernel's body per tile block, against float64 references.
namespace more {

namespace ct = carbide::tile;

std::vector<float> random_floats(std::size_t n, unsigned seed, float low = -1.f, float high = 1.f) {
  std::vector<float> values(n);
  unsigned state = seed * 2654435761u + 1;
  for (float& v : values) {
    state = state * 1664525u + 1013904223u;
    v = low + (high - low) * float(state >> 8) / float(1u << 24);
  }
  return values;
}
std::vector<ct::bf16> to_bf16(const std::vector<float>& values) {
  std::vector<ct::bf16> out;
  for (float v : values) out.push_back(ct::bf16(v));
  return out;
}

TEST(TileReference, IotaAlongAnAxisScalarsOnEitherSideAndMasks) {
  const auto columns = ct::iota<int, ct::shape<2, 3>, 1>();  // 0 1 2 / 0 1 2
  const auto rows = ct::iota<int, ct::shape<2, 3>, 0>();     // 0 0 0 / 1 1 1
  EXPECT_EQ(columns[4], 1);
  EXPECT_EQ(rows[4], 1);
  const auto t = ct::cast<float>(columns - rows);  // 0 1 2 / -1 0 1
  EXPECT_EQ(ct::max(t, 0.5f)[3], 0.5f);
  EXPECT_EQ(ct::min(0.5f, t)[2], 0.5f);
  EXPECT_EQ(ct::fma(t, 2.0f, 1.0f)[5], 3.0f);
  const auto causal = ct::select(columns <= rows && !(columns > 1), t, -INFINITY);
  EXPECT_EQ(causal[0], 0.f);
  EXPECT_EQ(causal[1], -INFINITY);
  EXPECT_EQ(causal[4], 0.f);
  EXPECT_EQ(causal[5], -INFINITY);  // column 2 > 1
  EXPECT_EQ(ct::select(rows > 0, 1.0f, t)[0], 0.f);
  EXPECT_EQ(ct::max(ct::full<float, ct::shape<2>>(NAN), 1.0f)[0], 1.f);  // fmax: a NaN gives the other
}

TEST(TileReference, ArgmaxTakesTheFirstLargestAlongItsAxis) {
  ct::tile<float, ct::shape<2, 4>> t;
  const float values[] = {1, 7, 7, 2, -3, -1, -1, -2};
  for (int i = 0; i < 8; ++i) t[i] = values[i];
  const auto largest = ct::argmax<1>(t);
  EXPECT_EQ(largest[0], 1);  // 7 at 1 and 2: the first
  EXPECT_EQ(largest[1], 1);
  EXPECT_EQ(ct::argmin<1>(t)[0], 0);
  EXPECT_EQ(ct::argmin<1>(t)[1], 0);
  EXPECT_EQ(ct::argmax<0>(t)[3], 0);
  EXPECT_EQ(ct::argmin<0>(t)[1], 1);
}

TEST(TileReference, PartitionLoadsPadWithTheirPadding) {
  std::vector<float> x(3 * 5);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(i);
  const ct::in<float, 2> in(x.data(), {3, 5});
  const auto p = in.partition(ct::shape<2, 4>{});
  const auto edge = p.load(1, 1, ct::pad(-INFINITY));  // rows 2..3, columns 4..7
  EXPECT_EQ(edge[0], 14.f);
  EXPECT_EQ(edge[1], -INFINITY);
  EXPECT_EQ(p.load(1, 1)[1], 0.f);
}

TEST(TileReference, TransposeAndBatchedMma) {
  ct::tile<ct::bf16, ct::shape<1, 2, 3>> a;
  for (int i = 0; i < 6; ++i) a[i] = ct::bf16(float(i));
  const auto at = ct::transpose(a);  // shape<1, 3, 2>
  EXPECT_EQ(float(at[1]), 3.f);      // (0, 0, 1) is a's (0, 1, 0)
  const auto c = ct::mma(a, at, ct::zeros<float, ct::shape<1, 2, 2>>());
  EXPECT_EQ(c[0], 0.f + 1 + 4);    // row 0 · row 0
  EXPECT_EQ(c[1], 0.f + 4 + 10);   // row 0 · row 1
  EXPECT_EQ(c[3], 9.f + 16 + 25);  // row 1 · row 1
}

// Rows, tile blocks and kernels as a user writes them.
template <int B>
CARBIDE_TILE_KERNEL
void rmsnorm(ct::out<ct::bf16, ct::shape<1, B>> y, ct::in<ct::bf16, 2> x, ct::in<ct::bf16, 1> w, float eps) {
  const int n = int(x.extent(1));
  auto pw = w.partition(ct::shape<B>{});
  auto t = ct::cast<float>(ct::load_like(x, y));
  auto r = ct::rsqrt(ct::reduce_sum<1>(t * t) / float(n) + eps);
  y.store(ct::cast<ct::bf16>(t * ct::bcast<1>(r, t) * ct::bcast<0>(ct::cast<float>(pw.load(0)), t)));
}

TEST(TileReference, RmsnormOverRowsLongerThanTheirLastTile) {
  const std::size_t rows = 3, cols = 200;
  const auto x = to_bf16(random_floats(rows * cols, 1, -3, 3)), w = to_bf16(random_floats(cols, 2, 0.5f, 1.5f));
  std::vector<ct::bf16> y(rows * cols);
  for (int r = 0; r < int(rows); ++r)
    rmsnorm<256>(ct::out<ct::bf16, ct::shape<1, 256>>(y.data(), {std::int64_t(rows), std::int64_t(cols)}, {r, 0}),
                 ct::in<ct::bf16, 2>(x.data(), {std::int64_t(rows), std::int64_t(cols)}),
                 ct::in<ct::bf16, 1>(w.data(), {std::int64_t(cols)}), 1e-6f);
  for (std::size_t r = 0; r < rows; ++r) {
    double squares = 0;
    for (std::size_t c = 0; c < cols; ++c) squares += double(float(x[r * cols + c])) * float(x[r * cols + c]);
    const double inverse = 1 / std::sqrt(squares / cols + 1e-6);
    for (std::size_t c = 0; c < cols; ++c)
      EXPECT_NEAR(float(y[r * cols + c]), float(x[r * cols + c]) * inverse * float(w[c]), 0.02) << r << ", " << c;
  }
}

// A GEMM with a bias, GELU and residual epilogue, and each row's largest accumulated value.
template <class T>
T gelu(const T& x) {
  return 0.5f * x * (1.0f + ct::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
}
template <int BM, int BN, int BK>
CARBIDE_TILE_KERNEL
void gemm_epilogue(ct::out<ct::bf16, ct::shape<BM, BN>> c, ct::out<float, ct::shape<BM, 1>> row_max,
                   ct::in<ct::bf16, 2> a, ct::in<ct::bf16, 2> b, ct::in<float, 1> bias, ct::in<ct::bf16, 2> res) {
  auto [bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<BM, BK>{});
  auto pb = b.partition(ct::shape<BK, BN>{});
  auto pbias = bias.partition(ct::shape<BN>{});
  auto acc = ct::zeros<float, ct::shape<BM, BN>>();
  for (int k : ct::irange(pa.tiles(1))) acc = ct::mma(pa.load(bm, k), pb.load(k, bn), acc);
  c.store(ct::cast<ct::bf16>(gelu(acc + ct::bcast<0>(pbias.load(bn), acc)) + ct::cast<float>(ct::load_like(res, c))));
  row_max.store(ct::reshape<ct::shape<BM, 1>>(ct::reduce_max<1>(acc)));
}

TEST(TileReference, GemmEpilogueAgainstFloat64) {
  const int m = 20, n = 12, k = 24;
  const auto a = to_bf16(random_floats(m * k, 3)), b = to_bf16(random_floats(k * n, 4)), res = to_bf16(random_floats(m * n, 5));
  const auto bias = random_floats(n, 6);
  std::vector<ct::bf16> c(m * n);
  std::vector<float> row_max(m * 2, NAN);  // two column tiles of 8
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j)
      gemm_epilogue<8, 8, 16>(ct::out<ct::bf16, ct::shape<8, 8>>(c.data(), {m, n}, {i, j}),
                              ct::out<float, ct::shape<8, 1>>(row_max.data(), {m, 2}, {i, j}),
                              ct::in<ct::bf16, 2>(a.data(), {m, k}), ct::in<ct::bf16, 2>(b.data(), {k, n}),
                              ct::in<float, 1>(bias.data(), {n}), ct::in<ct::bf16, 2>(res.data(), {m, n}));
  for (int i = 0; i < m; ++i) {
    double largest[2] = {-INFINITY, -INFINITY};
    for (int j = 0; j < n; ++j) {
      double sum = 0;
      for (int p = 0; p < k; ++p) sum += double(float(a[i * k + p])) * float(b[p * n + j]);
      largest[j / 8] = std::max(largest[j / 8], sum);
      const double x = sum + bias[j];
      const double expected = 0.5 * x * (1 + std::tanh(0.7978845608 * (x + 0.044715 * x * x * x))) + float(res[i * n + j]);
      EXPECT_NEAR(float(c[i * n + j]), expected, 0.02) << i << ", " << j;
    }
    EXPECT_NEAR(row_max[i * 2], largest[0], 1e-5);
    // Columns 12..15 of the second tile lie past n: zero-padded operands accumulate zeros there,
    // and the reduction sees them, as it sees every element of the tile.
    EXPECT_NEAR(row_max[i * 2 + 1], std::max(largest[1], 0.0), 1e-5);
  }
}

// The index of each row's largest element, over rows longer than one tile: a row state carried
// through the loop over column tiles.
template <int BM, int B>
CARBIDE_TILE_KERNEL
void row_argmax(ct::out<int, ct::shape<BM>> where, ct::in<float, 2> x) {
  auto [i] = where.coord();
  auto px = x.partition(ct::shape<BM, B>{});
  auto best = ct::full<float, ct::shape<BM>>(-INFINITY);
  auto at = ct::zeros<int, ct::shape<BM>>();
  for (int k : ct::irange(px.tiles(1))) {
    auto t = px.load(i, k, ct::pad(-INFINITY));
    auto largest = ct::reduce_max<1>(t);
    at = ct::select(largest > best, ct::argmax<1>(t) + k * B, at);
    best = ct::max(best, largest);
  }
  where.store(at);
}

TEST(TileReference, RowArgmaxAcrossColumnTiles) {
  const int rows = 5, cols = 37;
  const auto x = random_floats(rows * cols, 7);
  std::vector<int> where(rows, -1);
  for (int i = 0; i < 2; ++i)
    row_argmax<4, 16>(ct::out<int, ct::shape<4>>(where.data(), {rows}, {i}), ct::in<float, 2>(x.data(), {rows, cols}));
  for (int r = 0; r < rows; ++r)
    EXPECT_EQ(where[r], int(std::max_element(x.begin() + r * cols, x.begin() + (r + 1) * cols) - (x.begin() + r * cols))) << r;
}

// Forward attention, one tile block per BM query rows of one head: S = Q·Kᵀ per key tile, masked
// past the sequence's end (and above the diagonal when causal), an online softmax with the
// running maximum and sum carried through the loop, O accumulated from P in bf16.
template <int BM, int BN, int D, bool Causal>
CARBIDE_TILE_KERNEL
void attention(ct::out<ct::bf16, ct::shape<1, BM, D>> o, ct::in<ct::bf16, 3> q, ct::in<ct::bf16, 3> k,
               ct::in<ct::bf16, 3> v, float scale) {
  auto [h, bm, unused] = o.coord();
  const int n = int(k.extent(1));
  auto pq = q.partition(ct::shape<1, BM, D>{});
  auto pk = k.partition(ct::shape<1, BN, D>{});
  auto pv = v.partition(ct::shape<1, BN, D>{});
  auto qt = ct::reshape<ct::shape<BM, D>>(pq.load(h, bm, 0));
  auto m = ct::full<float, ct::shape<BM>>(-INFINITY);
  auto l = ct::zeros<float, ct::shape<BM>>();
  auto acc = ct::zeros<float, ct::shape<BM, D>>();
  const int last = Causal ? std::min(pk.tiles(1), ((bm + 1) * BM + BN - 1) / BN) : pk.tiles(1);
  for (int j : ct::irange(last)) {
    auto kt = ct::reshape<ct::shape<BN, D>>(pk.load(h, j, 0));
    auto s = ct::mma(qt, ct::transpose(kt), ct::zeros<float, ct::shape<BM, BN>>()) * scale;
    auto cols = ct::iota<int, ct::shape<BM, BN>, 1>() + j * BN;
    s = ct::select(cols < n, s, -INFINITY);
    if constexpr (Causal) s = ct::select(cols <= ct::iota<int, ct::shape<BM, BN>, 0>() + bm * BM, s, -INFINITY);
    auto m_new = ct::max(m, ct::reduce_max<1>(s));
    auto p = ct::exp(s - ct::bcast<1>(m_new, s));
    auto alpha = ct::exp(m - m_new);
    l = l * alpha + ct::reduce_sum<1>(p);
    acc = ct::mma(ct::cast<ct::bf16>(p), ct::reshape<ct::shape<BN, D>>(pv.load(h, j, 0)), acc * ct::bcast<1>(alpha, acc));
    m = m_new;
  }
  o.store(ct::reshape<ct::shape<1, BM, D>>(ct::cast<ct::bf16>(acc / ct::bcast<1>(l, acc))));
}

template <bool Causal>
void check_attention(int heads, int seq) {
  constexpr int BM = 16, BN = 16, D = 16;
  const std::int64_t count = std::int64_t(heads) * seq * D;
  const auto q = to_bf16(random_floats(count, 8)), k = to_bf16(random_floats(count, 9)), v = to_bf16(random_floats(count, 10));
  std::vector<ct::bf16> o(count);
  const float scale = 1.f / std::sqrt(float(D));
  const std::array<std::int64_t, 3> extents{heads, seq, D};
  for (int h = 0; h < heads; ++h)
    for (int bm = 0; bm * BM < seq; ++bm)
      attention<BM, BN, D, Causal>(ct::out<ct::bf16, ct::shape<1, BM, D>>(o.data(), extents, {h, bm, 0}),
                                   ct::in<ct::bf16, 3>(q.data(), extents), ct::in<ct::bf16, 3>(k.data(), extents),
                                   ct::in<ct::bf16, 3>(v.data(), extents), scale);
  double error = 0, norm = 0;
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < seq; ++i) {
      const std::int64_t row = (std::int64_t(h) * seq + i) * D;
      std::vector<double> weights(std::size_t(seq), 0.0);
      double largest = -INFINITY, sum = 0;
      const int keys = Causal ? i + 1 : seq;
      for (int j = 0; j < keys; ++j) {
        double dot = 0;
        for (int d = 0; d < D; ++d) dot += double(float(q[row + d])) * float(k[(std::int64_t(h) * seq + j) * D + d]);
        weights[std::size_t(j)] = dot * scale;
        largest = std::max(largest, weights[std::size_t(j)]);
      }
      for (int j = 0; j < keys; ++j) sum += weights[std::size_t(j)] = std::exp(weights[std::size_t(j)] - largest);
      for (int d = 0; d < D; ++d) {
        double expected = 0;
        for (int j = 0; j < keys; ++j) expected += weights[std::size_t(j)] / sum * float(v[(std::int64_t(h) * seq + j) * D + d]);
        const double difference = float(o[row + d]) - expected;
        error += difference * difference;
        norm += expected * expected;
      }
    }
  // P and O round to bf16 (2^-9 relative each).
  EXPECT_LT(std::sqrt(error / norm), 1e-2) << (Causal ? "causal" : "not causal") << ", " << seq << " keys";
}

TEST(TileReference, AttentionAgainstFloat64) {
  check_attention<false>(2, 40);  // 40 keys: a partial last tile of keys and of queries
  check_attention<true>(2, 40);
  check_attention<true>(1, 16);
}

}  // namespace more
