// The checks that cost nothing (issue 12) on a real device: whole-chunk stores, 32-bit index
// arithmetic and span reads proven in range compute what their checked forms compute, and the
// launch refuses, before the kernel runs, what would make them unsafe.
#include "gpu_kernels.carbide.hpp"
#include "gpu_test_support.hpp"

#include <vector>

namespace {

constexpr unsigned kBlock = 256;

TEST(ChecksCost, WholeChunkStoresWriteEveryElementOnce) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  // Not a multiple of the block's 1024 elements: the last block has empty chunks, which store nothing.
  const std::size_t n = 4 * (kBlock * 1000 + 37);
  const auto in = random_floats(n);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream, in);
  auto out = carbide::DeviceBuffer<float>::from_host(stream, poisoned(n));
  auto strided = carbide::DeviceBuffer<float>::from_host(stream, poisoned(n));
  auto module = gpu_vocabulary::load(ctx);
  module.scale_whole_chunks(
      stream, module.prepare_scale_whole_chunks(carbide::LaunchConfig1D(carbide::div_ceil(n / 4, kBlock), kBlock)),
      in_dev, out, 3.f);
  module.scale_strided_whole_chunks(
      stream,
      module.prepare_scale_strided_whole_chunks(carbide::LaunchConfig1D(carbide::div_ceil(n / 8, kBlock), kBlock)),
      in_dev, strided, 3.f);
  const auto whole = out.to_host_vec(stream), dealt = strided.to_host_vec(stream);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(whole[i], 3.f * in[i]) << i;
    ASSERT_EQ(dealt[i], 3.f * in[i]) << i;
  }
}

TEST(ChecksCost, WholeChunkStoresRefuseAPartialLastChunk) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = 4 * kBlock + 2;
  auto in = carbide::DeviceBuffer<float>::from_host(stream, random_floats(n));
  auto out = carbide::DeviceBuffer<float>::from_host(stream, poisoned(n));
  auto module = gpu_vocabulary::load(ctx);
  const auto prepared = module.prepare_scale_whole_chunks(carbide::LaunchConfig1D(2, kBlock));
  try {
    module.scale_whole_chunks(stream, prepared, in, out, 3.f);
    ADD_FAILURE() << "a launch storing whole chunks of 4 into 1026 elements was accepted";
  } catch (const carbide::LaunchContractError& error) {
    EXPECT_EQ(error.field(), "'out'");
  }
  // Refused before the kernel ran: nothing was written.
  for (float v : out.to_host_vec(stream)) ASSERT_NE(v, v);
}

TEST(ChecksCost, Index32KernelsComputeWhatTheirIndexesName) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = (std::size_t(1) << 22) + 37;
  const auto x = random_floats(n), y = random_floats(n);
  auto x_dev = carbide::DeviceBuffer<float>::from_host(stream, x);
  auto y_dev = carbide::DeviceBuffer<float>::from_host(stream, y);
  auto module = gpu_vocabulary::load(ctx);
  module.axpy_32(stream, module.prepare_axpy_32(carbide::LaunchConfig1D(carbide::div_ceil(n, kBlock), kBlock)),
                 x_dev, y_dev, 2.f);
  const auto result = y_dev.to_host_vec(stream);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(result[i], 2.f * x[i] + y[i]) << i;

  // The transposed witness in 32 bits: out is 1000 x 1500, in its transpose.
  const std::size_t rows = 1000, cols = 1500;
  const auto values = random_floats(rows * cols);
  auto in = carbide::DeviceBuffer2D<float>::from_host(stream, values, cols, rows);
  auto out = carbide::DeviceBuffer2D<float>::zeroed(stream, rows, cols);
  module.transpose_32(stream,
                      module.prepare_transpose_32(carbide::LaunchConfig2D(
                          {carbide::div_ceil(rows, 8), carbide::div_ceil(cols, 32), 1}, {32, 8, 1})),
                      in, out);
  const auto transposed = out.to_host_vec(stream);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) ASSERT_EQ(transposed[r * cols + c], values[c * rows + r]) << r << ", " << c;
}

TEST(ChecksCost, Index32RefusesGridsPast2To32Threads) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto module = gpu_vocabulary::load(ctx);
  EXPECT_NO_THROW((void)module.prepare_axpy_32(carbide::LaunchConfig1D(std::uint64_t(1) << 24, kBlock)));
  EXPECT_THROW((void)module.prepare_axpy_32(carbide::LaunchConfig1D((std::uint64_t(1) << 24) + 1, kBlock)),
               carbide::LaunchContractError);
}

TEST(ChecksCost, Index32RefusesViewsOf2To32Elements) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  auto module = gpu_vocabulary::load(ctx);
  auto count = carbide::DeviceBuffer<unsigned>::zeroed(stream, 1);
  const auto prepared = module.prepare_count_nonzero_32(carbide::LaunchConfig1D(1024, kBlock));
  // 2^32 - 1 bytes, every one set: the largest view allowed, counted in full up to its last byte
  // (on a GPU: on the CPU, 4 billion threads with their race checks take minutes).
  if (!ctx.is_cpu()) {
    const std::vector<unsigned char> ones((std::size_t(1) << 32) - 1, 1);
    auto bytes = carbide::DeviceBuffer<unsigned char>::from_host(stream, ones);
    module.count_nonzero_32(stream, prepared, bytes, count);
    EXPECT_EQ(count.to_host_vec(stream)[0], 4294967295u);
  }
  auto bytes = carbide::DeviceBuffer<unsigned char>::zeroed(stream, std::size_t(1) << 32);
  try {
    module.count_nonzero_32(stream, prepared, bytes, count);
    ADD_FAILURE() << "a view of 2^32 elements was accepted under index_bits = 32";
  } catch (const carbide::LaunchContractError& error) {
    EXPECT_EQ(error.field(), "'bytes'");
  }
}

TEST(ChecksCost, ProvenSpanReadsReadTheirOwnElements) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = kBlock * 300 + 11;
  const unsigned width = 5;
  const auto in = random_floats(n);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream, in);
  auto out = carbide::DeviceBuffer<float>::from_host(stream, poisoned(n));
  auto module = gpu_vocabulary::load(ctx);
  module.window_sums(stream, module.prepare_window_sums(carbide::LaunchConfig1D(carbide::div_ceil(n, kBlock), kBlock)),
                     in_dev, out, width);
  const auto sums = out.to_host_vec(stream);
  for (std::size_t i = 0; i < n; ++i) {
    float expected = 0.f;
    for (std::size_t j = i; j < n && j < i + width; ++j) expected += in[j];
    ASSERT_EQ(sums[i], expected) << i;
  }
}

TEST(ChecksCost, CoveredViewsAreReadAtEveryThreadsOwnIndex) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  const std::size_t n = kBlock * 4096;
  const auto a = random_floats(n);
  auto a_dev = carbide::DeviceBuffer<float>::from_host(stream, a);
  auto out = carbide::DeviceBuffer<float>::from_host(stream, poisoned(n));
  auto module = gpu_vocabulary::load(ctx);
  module.double_covered(stream, module.prepare_double_covered(carbide::LaunchConfig1D(n / kBlock, kBlock)), a_dev,
                        out);
  const auto doubled = out.to_host_vec(stream);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(doubled[i], 2.f * a[i]) << i;
  // One block more than the view's elements: refused before the kernel runs, nothing written.
  auto untouched = carbide::DeviceBuffer<float>::from_host(stream, poisoned(n));
  EXPECT_THROW(module.double_covered(stream, module.prepare_double_covered(carbide::LaunchConfig1D(n / kBlock + 1, kBlock)),
                                     a_dev, untouched),
               carbide::LaunchContractError);
  for (float v : untouched.to_host_vec(stream)) ASSERT_NE(v, v);
}

}  // namespace
