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
