// The register layouts' index maps, as the host sees them (they are constexpr): every layout deals
// out each element of a tile once, row and column slots name the rows and columns their elements
// lie in, and the C fragments of two neighbouring n8 pieces are the A fragment of one k16 step,
// the fact that lets mma_block.hpp feed P to the next mma from registers.
#include <carbide/tile/gemm_sm80.hpp>
#include <carbide/tile/gemm_sm90.hpp>
#include <carbide/tile/layouts.hpp>
#include <carbide/tile/mma_block.hpp>

#include <gtest/gtest.h>

namespace {

namespace ct = carbide::tile;
namespace ctd = carbide::tile::detail;

using Plan80 = ctd::sm80::gemm_plan<ct::bf16, 128, 128, 32, 2, 2, 3>;
using Plan90 = ctd::sm90::gemm_plan<ct::bf16, 128, 256, 64, 4>;

TEST(TileLayouts, EveryLayoutHoldsEveryElementOfItsTile) {
  EXPECT_TRUE((ctd::covers_every_element<ct::shape<64, 64>, ctd::mma_c<4, 1>, 128>()));
  EXPECT_TRUE((ctd::covers_every_element<ct::shape<1, 64, 128>, ctd::mma_c<4, 1>, 128>()));
  EXPECT_TRUE((ctd::covers_every_element<ct::shape<32, 48>, ctd::mma_c<2, 1>, 64>()));
  EXPECT_TRUE((ctd::covers_every_element<ct::shape<4, 100>, ctd::blocked<32, 4>, 32>()));  // ragged
  EXPECT_TRUE((ctd::covers_every_element<ct::shape<64>, ctd::rows_of<ctd::mma_c<4, 1>, 0>, 128>()));
  EXPECT_TRUE((ctd::covers_every_element<ct::shape<128>, ctd::cols_of<ctd::blocked<128, 4>, 4>, 128>()));
  EXPECT_TRUE((ctd::covers_every_element<ct::shape<128, 128>, ctd::sm80::acc<Plan80>, 128>()));
  EXPECT_TRUE((ctd::covers_every_element<ct::shape<128, 256>, ctd::sm90::acc<Plan90>, 384>()));
  EXPECT_FALSE((ctd::covers_every_element<ct::shape<64, 64>, ctd::mma_c<4, 1>, 64>()));  // half the warps
}

// Each element's row is its row slot's row, its column its column slot's column.
template <class Shape, class Layout, int Threads>
void expect_slots_agree() {
  using L = ctd::layout_of<Shape, Layout>;
  using Rows = ctd::layout_of<ct::shape<int(Shape::size / Shape::last())>, ctd::rows_layout_t<Layout, Shape::last()>>;
  using Columns = ctd::layout_of<ct::shape<Shape::last()>, ctd::cols_layout_t<Layout, int(Shape::size / Shape::last())>>;
  for (int t = 0; t < Threads; ++t)
    for (int i = 0; i < L::kCount; ++i) {
      const int e = L::index(t, i);
      if (e < 0) continue;
      EXPECT_EQ(Rows::index(t, L::row_slot(i)), e / Shape::last()) << t << ", " << i;
      EXPECT_EQ(Columns::index(t, L::col_slot(i)), e % Shape::last()) << t << ", " << i;
    }
}

TEST(TileLayouts, RowAndColumnSlotsNameTheirElementsRowsAndColumns) {
  expect_slots_agree<ct::shape<64, 128>, ctd::mma_c<4, 1>, 128>();
  expect_slots_agree<ct::shape<128, 128>, ctd::sm80::acc<Plan80>, 128>();
  expect_slots_agree<ct::shape<128, 256>, ctd::sm90::acc<Plan90>, 384>();
  expect_slots_agree<ct::shape<4, 128>, ctd::blocked<32, 4>, 32>();      // every slot the same columns
  expect_slots_agree<ct::shape<1, 4096>, ctd::blocked<256, 8>, 256>();   // a row over several slots
}

// The wgmma plan's accumulator is wgmma's own m64nN fragment map (wgmma.hpp) in each consumer
// warpgroup, after the producer's threads.
TEST(TileLayouts, HopperAccumulatorsAreWgmmasFragmentMap) {
  using L = ctd::layout_of<ct::shape<128, 256>, ctd::sm90::acc<Plan90>>;
  using Wgmma = ct::sm90::m64nk16_accumulator;
  for (int thread = 0; thread < 384; ++thread)
    for (int i = 0; i < L::kCount; ++i) {
      if (thread < 128) {
        EXPECT_EQ(L::index(thread, i), -1);
        continue;
      }
      EXPECT_EQ(L::row(thread, i), (thread / 128 - 1) * 64 + Wgmma::row(thread % 128, i)) << thread << ", " << i;
      EXPECT_EQ(L::column(thread, i), Wgmma::column(thread % 128, i)) << thread << ", " << i;
    }
}

// Lane l's C registers of pieces (mi, 2kk) and (mi, 2kk + 1) of an mma_c<W, 1> tile, read as
// mma_block.hpp packs them, are the A fragment of rows mi·16.. and k step kk.
TEST(TileLayouts, CFragmentsOfTwoPiecesAreTheAFragmentOfAKStep) {
  using L = ctd::layout_of<ct::shape<64, 64>, ctd::mma_c<4, 1>>;
  using A = ct::sm80::m16n8k16;
  for (int thread = 0; thread < 128; ++thread)
    for (int mi = 0; mi < L::kMmaM; ++mi)
      for (int kk = 0; kk < 64 / 16; ++kk)
        for (int a = 0; a < 8; ++a) {
          // a_i (register a / 2, half a % 2) comes from piece 2kk + a / 4, C register a % 4.
          const int element = (mi * L::kMmaN + 2 * kk + a / 4) * 4 + a % 4;
          const int warp_row = L::warp_m(thread) * L::kWarpTileM + mi * 16;
          EXPECT_EQ(L::row(thread, element), warp_row + A::a_row(thread % 32, a)) << thread << ", " << a;
          EXPECT_EQ(L::column(thread, element), kk * 16 + A::a_col(thread % 32, a)) << thread << ", " << a;
        }
}

}  // namespace
