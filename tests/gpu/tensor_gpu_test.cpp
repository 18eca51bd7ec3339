// Tensor and Partition on a real device: round trips in float and bf16, the partition/unpartition
// hand-over, the errors of moved-from handles, and the tile-launch helpers on real tensors (the
// arguments a stub fills, rank and grid mismatches, range overlap). No module: these need only
// device memory.
#include "gpu_test_support.hpp"

#include <string>
#include <vector>

namespace ct = carbide::tile;

namespace {

template <class Call>
std::string message_of(Call call) {
  try {
    call();
  } catch (const carbide::Error& error) {
    return error.what();
  }
  return "(nothing thrown)";
}

TEST(Tensor, ZeroedHoldsZerosWithItsExtents) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  auto t = carbide::Tensor<float>::zeroed(stream, {3, 5, 7});
  EXPECT_EQ(t.extents(), (std::vector<std::size_t>{3, 5, 7}));
  EXPECT_EQ(t.rank(), 3u);
  EXPECT_EQ(t.size(), 105u);
  EXPECT_EQ(t.bytes(), 420u);
  EXPECT_EQ(t.context().ordinal(), ctx.ordinal());
  EXPECT_EQ(t.to_host_vec(stream), std::vector<float>(105, 0.f));
}

TEST(Tensor, FloatAndBf16RoundTripExactly) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  std::vector<float> floats(300 * 129);
  for (std::size_t i = 0; i < floats.size(); ++i) floats[i] = float(i) * 0.5f - 1000.f;
  const auto f = carbide::Tensor<float>::from_host(stream, floats, {300, 129});
  EXPECT_EQ(f.to_host_vec(stream), floats);

  std::vector<ct::bf16> halves;
  for (int i = 0; i < 1000; ++i) halves.push_back(ct::bf16(float(i % 97) - 48.f));
  const std::vector<std::size_t> extents{1000};
  const auto h = carbide::Tensor<ct::bf16>::from_host(stream, halves, extents);
  const auto back = h.to_host_vec(stream);
  ASSERT_EQ(back.size(), halves.size());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < back.size(); ++i) wrong += back[i].bits() != halves[i].bits();
  EXPECT_EQ(wrong, 0u);
}

TEST(Tensor, FromHostOfTheWrongSizeIsRejected) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::vector<float> ten(10);
  EXPECT_EQ(message_of([&] { carbide::Tensor<float>::from_host(stream, ten, {3, 4}); }),
            "Tensor::from_host: 10 values for a tensor of extents 3 x 4 (12 elements)");
}

TEST(Partition, HoldsTheTensorUntilUnpartitioned) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  std::vector<float> values(300 * 200, 2.f);
  auto t = carbide::Tensor<float>::from_host(stream, values, {300, 200});
  const auto ptr = t.device_ptr();
  auto p = std::move(t).partition(ct::shape<128, 64>{});
  EXPECT_TRUE(t.empty());  // NOLINT(bugprone-use-after-move): the point of the test
  EXPECT_FALSE(p.empty());
  EXPECT_EQ(p.tiles(), (std::array<std::size_t, 2>{3, 4}));
  EXPECT_EQ(p.tile_count(), 12u);
  EXPECT_EQ(p.extents(), (std::vector<std::size_t>{300, 200}));
  EXPECT_EQ(p.device_ptr(), ptr);
  t = std::move(p).unpartition();
  EXPECT_TRUE(p.empty());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(t.device_ptr(), ptr);
  EXPECT_EQ(t.to_host_vec(stream), values);
}

TEST(Partition, ShapeOfAnotherRankIsRejectedAndTheTensorKept) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  auto t = carbide::Tensor<float>::zeroed(stream, {300, 200});
  EXPECT_EQ(message_of([&] { std::move(t).partition(ct::shape<128>{}); }),
            "Tensor::partition: a tensor of rank 2 (extents 300 x 200) cut into tiles of "
            "ct::shape<128>, of rank 1; give the shape one extent per axis");
  EXPECT_FALSE(t.empty());  // NOLINT(bugprone-use-after-move): the partition was refused
}

TEST(Tensor, MovedFromTensorThrowsSayingHowToGetItBack) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  auto t = carbide::Tensor<float>::zeroed(stream, {64});
  auto p = std::move(t).partition(ct::shape<16>{});
  // NOLINTBEGIN(bugprone-use-after-move): each use of the moved-from handle must throw
  const std::string message = message_of([&] { t.to_host_vec(stream); });
  EXPECT_NE(message.find("Tensor::to_host_vec on an empty Tensor"), std::string::npos) << message;
  EXPECT_NE(message.find("std::move(p).unpartition()"), std::string::npos) << message;
  EXPECT_THROW(t.extents(), carbide::Error);
  EXPECT_THROW(t.device_ptr(), carbide::Error);
  EXPECT_THROW(std::move(t).partition(ct::shape<16>{}), carbide::Error);
  auto back = std::move(p).unpartition();
  EXPECT_THROW(p.tiles(), carbide::Error);
  EXPECT_THROW(std::move(p).unpartition(), carbide::Error);
  // NOLINTEND(bugprone-use-after-move)
}

TEST(TileLaunch, ArgumentsDescribeTheTensors) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  auto a = carbide::Tensor<ct::bf16>::zeroed(stream, {300, 64});
  auto c = std::move(carbide::Tensor<ct::bf16>::zeroed(stream, {300, 200}))
               .partition(ct::shape<128, 128>{});
  const auto a_arg = carbide::detail::tile_input<2>("kernels::gemm", "a", a);
  EXPECT_EQ(reinterpret_cast<carbide::detail::DevicePtr>(a_arg.data), a.device_ptr());
  EXPECT_EQ(a_arg.extent[0], 300);
  EXPECT_EQ(a_arg.extent[1], 64);
  EXPECT_EQ(a_arg.stride[0], 64);
  EXPECT_EQ(a_arg.stride[1], 1);
  EXPECT_EQ(a_arg.aligned16, 1);
  const auto c_arg = carbide::detail::tile_output("kernels::gemm", "c", c);
  EXPECT_EQ(c_arg.stride[0], 200);
  EXPECT_EQ(c_arg.tiles[0], 3);
  EXPECT_EQ(c_arg.tiles[1], 2);
  EXPECT_EQ(c_arg.aligned16, 1);  // 200 bf16 = 400 bytes a row
  EXPECT_EQ(
      carbide::detail::tile_grid("kernels::gemm", {carbide::detail::output_tiles("c", c_arg)}),
      6u);
}

TEST(TileLaunch, RankMismatchAndEmptyArgumentsAreRejected) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  auto b = carbide::Tensor<ct::bf16>::zeroed(stream, {300});
  EXPECT_EQ(message_of([&] { carbide::detail::tile_input<2>("kernels::gemm", "b", b); }),
            "launch of kernels::gemm rejected: b must be of rank 2 (the kernel's "
            "`ct::in<bf16, 2>`), got rank 1 (extents 300)");
  auto p = std::move(b).partition(ct::shape<128>{});
  // NOLINTNEXTLINE(bugprone-use-after-move): a launch must reject the moved-from handle
  EXPECT_NE(message_of([&] { carbide::detail::tile_input<1>("kernels::gemm", "b", b); })
                .find("'b' is an empty Tensor"),
            std::string::npos);
  b = std::move(p).unpartition();
  // NOLINTNEXTLINE(bugprone-use-after-move)
  EXPECT_NE(message_of([&] { carbide::detail::tile_output("kernels::gemm", "c", p); })
                .find("'c' is an empty Partition"),
            std::string::npos);
}

TEST(TileLaunch, OutputsOfDifferentGridsAreRejected) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  using carbide::Tensor;
  using carbide::detail::output_tiles;
  using carbide::detail::tile_grid;
  using carbide::detail::tile_output;
  auto y = std::move(Tensor<float>::zeroed(stream, {300, 1000})).partition(ct::shape<1, 1024>{});
  auto mean = std::move(Tensor<float>::zeroed(stream, {300})).partition(ct::shape<1>{});
  auto wide = std::move(Tensor<float>::zeroed(stream, {300, 2000})).partition(ct::shape<1, 1024>{});
  const auto y_arg = tile_output("kernels::norm", "y", y);
  const auto mean_arg = tile_output("kernels::norm", "mean", mean);
  const auto wide_arg = tile_output("kernels::norm", "wide", wide);
  EXPECT_EQ(tile_grid("kernels::norm", {output_tiles("y", y_arg), output_tiles("mean", mean_arg)}),
            300u);
  try {
    tile_grid("kernels::norm", {output_tiles("y", y_arg), output_tiles("wide", wide_arg)});
    FAIL() << "grids 300 x 1 and 300 x 2 were accepted together";
  } catch (const carbide::LaunchContractError& error) {
    EXPECT_EQ(error.got(), "300 x 2 tiles");
  }
}

TEST(TileLaunch, OutputOverlappingAnInputIsRejected) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  auto x = carbide::Tensor<float>::zeroed(stream, {256, 256});
  auto y = std::move(carbide::Tensor<float>::zeroed(stream, {256, 256}))
               .partition(ct::shape<64, 64>{});
  using carbide::detail::check_no_aliasing;
  EXPECT_NO_THROW(check_no_aliasing("kernels::copy", {{"y", y.device_ptr(), y.bytes(), true},
                                                      {"x", x.device_ptr(), x.bytes(), false}}));
  // The same memory as output and input: a borrowed view into y's tensor passed as x.
  auto view = carbide::DeviceBuffer<float>::borrow(ctx, y.device_ptr() + 1024, 64);
  try {
    check_no_aliasing("kernels::copy", {{"y", y.device_ptr(), y.bytes(), true},
                                        {"x", view.device_ptr(), view.bytes(), false}});
    FAIL() << "an input inside the output's memory was accepted";
  } catch (const carbide::AliasingError& error) {
    EXPECT_EQ(error.exclusive_param(), "y");
    EXPECT_EQ(error.other_param(), "x");
  }
}

}  // namespace
