// Tensor, Partition and the tile-launch helpers: everything that needs no device memory (extents,
// messages, argument layout, the grid check, what the types allow at compile time).
#include <carbide/runtime.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ct = carbide::tile;

namespace carbide::detail {
namespace {

std::string message_of(void (*call)()) {
  try {
    call();
  } catch (const Error& error) {
    return error.what();
  }
  return "(nothing thrown)";
}

TEST(TensorExtents, ElementsAreTheProductOfTheExtents) {
  EXPECT_EQ(tensor_elements("t", {7}, 4), 7u);
  EXPECT_EQ(tensor_elements("t", {3, 5, 7, 2}, 2), 210u);
}

TEST(TensorExtents, RankOutsideOneToFourIsRejected) {
  EXPECT_THROW(tensor_elements("t", {}, 4), Error);
  const std::string message =
      message_of([] { tensor_elements("Tensor::zeroed", {1, 2, 3, 4, 5}, 4); });
  EXPECT_EQ(message, "Tensor::zeroed: 5 extents; a tensor has 1 to 4");
}

TEST(TensorExtents, ZeroExtentIsRejectedNamingTheAxis) {
  EXPECT_EQ(message_of([] { tensor_elements("Tensor::zeroed", {4, 0}, 4); }),
            "Tensor::zeroed: extents 4 x 0 have 0 on axis 1; every extent of a tensor is at "
            "least 1");
}

TEST(TensorExtents, SizesPast64BitsAreRejected) {
  EXPECT_THROW(tensor_elements("t", {std::size_t(1) << 32, std::size_t(1) << 32}, 1), Error);
  EXPECT_THROW(tensor_elements("t", {std::size_t(1) << 62}, 8), Error);  // the bytes overflow
}

TEST(TensorMessages, EmptyHandlesSayHowToGetTheTensorBack) {
  EXPECT_EQ(message_of([] { throw_empty_tensor("Tensor::to_host_vec"); }),
            "Tensor::to_host_vec on an empty Tensor: it was moved into a partition (or into "
            "another Tensor); get it back with `t = std::move(p).unpartition();` first");
  EXPECT_NE(message_of([] { throw_empty_partition("Partition::tiles"); })
                .find("partition the tensor again with `std::move(t).partition(shape)`"),
            std::string::npos);
}

TEST(TensorMessages, PartitionOfAnotherRankNamesBoth) {
  EXPECT_NO_THROW(check_partition_rank({300, 200}, 2, ct::shape<128, 128>::text()));
  EXPECT_EQ(message_of([] { check_partition_rank({300, 200}, 1, ct::shape<128>::text()); }),
            "Tensor::partition: a tensor of rank 2 (extents 300 x 200) cut into tiles of "
            "ct::shape<128>, of rank 1; give the shape one extent per axis");
}

TEST(TileArguments, ElementNamesAreTheKernelsSpelling) {
  EXPECT_STREQ(tile_element_name<ct::bf16>(), "bf16");
  EXPECT_STREQ(tile_element_name<ct::f16>(), "f16");
  EXPECT_STREQ(tile_element_name<float>(), "float");
  EXPECT_STREQ(tile_element_name<std::int32_t>(), "int32_t");
}

TEST(TileArguments, RowMajorStridesFollowTheExtents) {
  std::int64_t extent[3], stride[3];
  EXPECT_EQ(describe_row_major({2, 3, 8}, sizeof(float), 0x1000, extent, stride), 1);
  EXPECT_EQ(std::vector<std::int64_t>(extent, extent + 3), (std::vector<std::int64_t>{2, 3, 8}));
  EXPECT_EQ(std::vector<std::int64_t>(stride, stride + 3), (std::vector<std::int64_t>{24, 8, 1}));
}

TEST(TileArguments, Aligned16NeedsTheStartAndEveryRowOn16Bytes) {
  std::int64_t extent[2], stride[2];
  // 8 bf16 = 16 bytes a row.
  EXPECT_EQ(describe_row_major({5, 8}, 2, 0x1000, extent, stride), 1);
  // 3 floats = 12 bytes a row: the second row starts off 16 bytes.
  EXPECT_EQ(describe_row_major({5, 3}, 4, 0x1000, extent, stride), 0);
  EXPECT_EQ(describe_row_major({5, 8}, 2, 0x1008, extent, stride), 0);
  // One axis: only the start matters, whatever the extent.
  EXPECT_EQ(describe_row_major({7}, 4, 0x1000, extent, stride), 1);
}

TEST(TileArguments, InputOfAnotherRankNamesTheParameterAndTheDeclaredType) {
  EXPECT_NO_THROW(check_tile_input_rank("kernels::gemm", "b", "bf16", 2, {300, 64}));
  try {
    check_tile_input_rank("kernels::gemm", "b", "bf16", 2, {300});
    FAIL() << "a rank-1 tensor was accepted for a ct::in<bf16, 2>";
  } catch (const LaunchContractError& error) {
    EXPECT_EQ(error.field(), "b");
    EXPECT_STREQ(error.what(),
                 "launch of kernels::gemm rejected: b must be of rank 2 (the kernel's "
                 "`ct::in<bf16, 2>`), got rank 1 (extents 300)");
  }
}

TEST(TileArguments, EmptyArgumentsSayWhatToPass) {
  EXPECT_EQ(message_of([] { throw_empty_tile_argument("kernels::gemm", "a", false); }),
            "launch of kernels::gemm rejected: 'a' is an empty Tensor (moved into a partition, or "
            "moved away); get it back with `t = std::move(p).unpartition();` before the launch");
  EXPECT_NE(message_of([] { throw_empty_tile_argument("kernels::gemm", "c", true); })
                .find("'c' is an empty Partition"),
            std::string::npos);
}

TEST(TileGrid, OneBlockPerTile) {
  const std::int64_t c[] = {3, 5};
  EXPECT_EQ(tile_grid("k", {{"c", c, 2}}), 15u);
  const std::int64_t d[] = {3, 5};
  EXPECT_EQ(tile_grid("k", {{"c", c, 2}, {"d", d, 2}}), 15u);
}

TEST(TileGrid, OutputsOfDifferentGridsAreRejectedNamingBoth) {
  const std::int64_t c[] = {3, 5}, d[] = {5, 3};
  try {
    tile_grid("kernels::two", {{"c", c, 2}, {"d", d, 2}});
    FAIL() << "grids 3 x 5 and 5 x 3 were accepted together";
  } catch (const LaunchContractError& error) {
    EXPECT_EQ(error.field(), "d");
    EXPECT_STREQ(error.what(),
                 "launch of kernels::two rejected: d must be partitioned into the tile grid of "
                 "'c' (3 x 5 tiles), got 5 x 3 tiles");
  }
}

TEST(TileGrid, AxesOfOneTileDoNotChangeTheGrid) {
  // y: shape<1, 1024> over [300, 1000]; mean: shape<1> over [300].
  const std::int64_t y[] = {300, 1}, mean[] = {300};
  EXPECT_EQ(tile_grid("k", {{"y", y, 2}, {"mean", mean, 1}}), 300u);
  const std::int64_t other[] = {299};
  EXPECT_THROW(tile_grid("k", {{"y", y, 2}, {"mean", other, 1}}), LaunchContractError);
}

TEST(TileGrid, MoreTilesThanGridXHoldsAreRejected) {
  const std::int64_t most[] = {(std::int64_t{1} << 31) - 1};
  EXPECT_EQ(tile_grid("k", {{"c", most, 1}}), (std::uint64_t{1} << 31) - 1);
  const std::int64_t too_many[] = {std::int64_t{1} << 16, std::int64_t{1} << 15};
  try {
    tile_grid("k", {{"c", too_many, 2}});
    FAIL() << "2^31 tiles were accepted";
  } catch (const LaunchContractError& error) {
    EXPECT_EQ(error.field(), "grid.x");
    EXPECT_EQ(error.got(), "65536 x 32768 tiles of 'c'");
  }
}

TEST(TileGrid, OutputTilesComeFromTheOutArg) {
  tile::detail::out_arg<float, 2> arg{};
  arg.tiles[0] = 4;
  arg.tiles[1] = 2;
  const OutputTiles tiles = output_tiles("c", arg);
  EXPECT_EQ(tile_grid("k", {tiles}), 8u);
}

// What the types allow: the ownership rules are compile-time where they can be.
template <class T, class = void>
struct partitions_an_lvalue : std::false_type {};
template <class T>
struct partitions_an_lvalue<T, std::void_t<decltype(std::declval<T&>().partition(ct::shape<8>{}))>>
    : std::true_type {};

template <class T, class = void>
struct partitions_an_rvalue : std::false_type {};
template <class T>
struct partitions_an_rvalue<T, std::void_t<decltype(std::declval<T&&>().partition(ct::shape<8>{}))>>
    : std::true_type {};

static_assert(!std::is_copy_constructible_v<Tensor<float>>);
static_assert(std::is_nothrow_move_constructible_v<Tensor<float>>);
static_assert(!std::is_copy_constructible_v<Partition<float, ct::shape<8>>>);
static_assert(std::is_nothrow_move_assignable_v<Partition<ct::bf16, ct::shape<8, 8>>>);
static_assert(partitions_an_rvalue<Tensor<float>>::value);
static_assert(!partitions_an_lvalue<Tensor<float>>::value,
              "partition() is for rvalues only: std::move(t).partition(shape)");

}  // namespace
}  // namespace carbide::detail

namespace {

// The GEMM operand check: shapes that multiply, K and N multiples of 8, aligned rows.
TEST(TileLaunch, GemmOperandsMustMultiplyAndHaveSixteenByteRows) {
  std::int64_t c[] = {300, 512}, a[] = {300, 200}, b[] = {200, 512}, short_b[] = {100, 512}, odd_k[] = {300, 204},
               odd_b[] = {204, 512};
  using carbide::detail::check_gemm_operands;
  EXPECT_NO_THROW(check_gemm_operands("k", {"c", c, 1}, {"a", a, 1}, {"b", b, 1}));
  try {
    check_gemm_operands("k", {"c", c, 1}, {"a", a, 1}, {"b", short_b, 1});
    FAIL() << "K mismatch accepted";
  } catch (const carbide::LaunchContractError& error) {
    EXPECT_EQ(error.field(), "b");
    EXPECT_NE(std::string(error.what()).find("'a' is 300 x 200, 'b' is 100 x 512"), std::string::npos);
  }
  EXPECT_THROW(check_gemm_operands("k", {"c", a, 1}, {"a", a, 1}, {"b", b, 1}), carbide::LaunchContractError);
  EXPECT_THROW(check_gemm_operands("k", {"c", c, 1}, {"a", odd_k, 1}, {"b", odd_b, 1}), carbide::LaunchContractError);
  EXPECT_THROW(check_gemm_operands("k", {"c", c, 1}, {"a", a, 0}, {"b", b, 1}), carbide::LaunchContractError);
}

// TMA tensor maps: what TMA cannot describe is a contract error, found before the driver is asked.
TEST(TileLaunch, TensorMapsRefuseWhatTmaCannotDescribeBeforeTheDriver) {
  using carbide::detail::encode_tensor_map;
  alignas(16) static const std::uint16_t data[64] = {};
  const std::int64_t extent[] = {300, 200}, rows_24_bytes[] = {12, 1}, row_major[] = {200, 1};
  try {
    encode_tensor_map("k", "a", data + 1, extent, row_major, 2, 128, 64);
    FAIL() << "a misaligned tensor accepted";
  } catch (const carbide::LaunchContractError& error) {
    EXPECT_EQ(error.field(), "a");
    EXPECT_NE(std::string(error.what()).find("16-byte aligned rows"), std::string::npos) << error.what();
  }
  EXPECT_THROW(encode_tensor_map("k", "a", data, extent, rows_24_bytes, 2, 128, 64), carbide::LaunchContractError);
  EXPECT_THROW(encode_tensor_map("k", "a", data, extent, row_major, 2, 128, 32), carbide::LaunchContractError);
  EXPECT_THROW(encode_tensor_map("k", "a", data, extent, row_major, 2, 512, 64), carbide::LaunchContractError);
  EXPECT_THROW(encode_tensor_map("k", "a", data, extent, row_major, 4, 128, 32), carbide::LaunchContractError);
}

// The whole-launch terms: only shapes where every tile lies inside, aligned, and the tiles run
// along the first axis pass.
using carbide::detail::covers;
using carbide::detail::covers_tile;
using carbide::detail::TileExtents;
using carbide::detail::whole_row_tiles;

TEST(WholeLaunch, OutputsPassWhenWholeAlignedAndOneTileAcross) {
  const std::int64_t rows[] = {300, 1024};
  EXPECT_TRUE(whole_row_tiles({rows, 2, 1}, {1, 1024}));
  EXPECT_TRUE(whole_row_tiles({rows, 2, 1}, {4, 1024}));
  EXPECT_FALSE(whole_row_tiles({rows, 2, 0}, {1, 1024}));    // not aligned
  EXPECT_FALSE(whole_row_tiles({rows, 2, 1}, {7, 1024}));    // 300 rows are not whole tiles of 7
  EXPECT_FALSE(whole_row_tiles({rows, 2, 1}, {1, 512}));     // two tiles across
  EXPECT_FALSE(whole_row_tiles({rows, 2, 1}, {1, 2048}));    // a partial tile across
  EXPECT_FALSE(whole_row_tiles({rows, 2, 1}, {1, 1024, 1}));  // another rank
  const std::int64_t flat[] = {1 << 20};
  EXPECT_TRUE(whole_row_tiles({flat, 1, 1}, {4096}));
  EXPECT_FALSE(whole_row_tiles({flat, 1, 1}, {3000}));
}

TEST(WholeLaunch, InputsPassWhenEveryTileReadLiesInside) {
  const std::int64_t out[] = {300, 1024}, same[] = {300, 1024}, larger[] = {301, 2048}, shorter[] = {299, 1024};
  EXPECT_TRUE(covers({same, 2, 1}, {out, 2, 1}));
  EXPECT_TRUE(covers({larger, 2, 1}, {out, 2, 1}));
  EXPECT_FALSE(covers({shorter, 2, 1}, {out, 2, 1}));
  EXPECT_FALSE(covers({same, 2, 0}, {out, 2, 1}));
  const std::int64_t row[] = {1, 1024};
  EXPECT_TRUE(covers_tile({row, 2, 1}, {0, 0}, {1, 1024}));
  EXPECT_FALSE(covers_tile({row, 2, 1}, {0, 1}, {1, 1024}));  // the second tile across is outside
  EXPECT_FALSE(covers_tile({row, 2, 1}, {0, 0}, {1, 2048}));
  EXPECT_FALSE(covers_tile({row, 2, 0}, {0, 0}, {1, 1024}));
  EXPECT_FALSE(covers_tile({row, 2, 1}, {0}, {1024}));  // another rank
}

TEST(WholeLaunch, ExtentsComeFromTheArguments) {
  ct::detail::in_arg<float, 2> in{};
  in.extent[0] = 3;
  in.extent[1] = 8;
  in.aligned16 = 1;
  const TileExtents extents = carbide::detail::tile_extents(in);
  EXPECT_EQ(extents.rank, 2);
  EXPECT_EQ(extents.extent[1], 8);
  EXPECT_EQ(extents.aligned16, 1);
}

}  // namespace
