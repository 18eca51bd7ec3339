// The generated module on a real device: launches, contract rejection before the driver sees a
// launch, and the runtime aliasing check; and the runtime's pipeline pieces: pinned memory,
// copies that do not wait, events, slices, memory or streams borrowed from other code, and
// graphs.
#include "gpu_kernels.carbide.hpp"
#include "gpu_test_support.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {

std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> distribution(-1000.f, 1000.f);
  std::vector<float> values(n);
  for (float& v : values) v = distribution(generator);
  return values;
}

TEST(GeneratedModule, VecaddComputesEveryElement) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  // Not a multiple of the block: the last block's extra threads must get nullptr from get_mut.
  const std::size_t n = (1 << 20) + 77;
  const auto a = random_floats(n, std::random_device{}());
  const auto b = random_floats(n, std::random_device{}());
  auto a_dev = carbide::DeviceBuffer<float>::from_host(stream, a);
  auto b_dev = carbide::DeviceBuffer<float>::from_host(stream, b);
  auto c_dev = carbide::DeviceBuffer<float>::from_host(
      stream, std::vector<float>(n, std::numeric_limits<float>::quiet_NaN()));
  auto module = gpu_tests::load(ctx);
  auto prepared = module.prepare_vecadd(carbide::LaunchConfig1D(carbide::div_ceil(n, 256), 256));
  module.vecadd(stream, prepared, a_dev, b_dev, c_dev);
  const auto c = c_dev.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += !(c[i] == a[i] + b[i]);
  EXPECT_EQ(wrong, 0u);
}

TEST(GeneratedModule, WrongBlockIsRejectedBeforeTheDriverSeesIt) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto module = gpu_tests::load(ctx);
  try {
    module.prepare_vecadd(carbide::LaunchConfig1D(8, 128));
    FAIL() << "a 128-thread block was accepted for a 256-thread contract";
  } catch (const carbide::LaunchContractError& error) {
    EXPECT_EQ(error.kernel(), "gpu_tests::vecadd");
    EXPECT_EQ(error.field(), "block.x");
    EXPECT_EQ(error.expected(), "256");
    EXPECT_EQ(error.got(), "128");
  }
}

TEST(GeneratedModule, ExclusiveOutputPassedAsInputThrowsAliasingError) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  auto b_dev = carbide::DeviceBuffer<float>::zeroed(stream, 1024);
  auto c_dev = carbide::DeviceBuffer<float>::zeroed(stream, 1024);
  auto module = gpu_tests::load(ctx);
  auto prepared = module.prepare_vecadd(carbide::LaunchConfig1D(4, 256));
  try {
    module.vecadd(stream, prepared, c_dev, b_dev, c_dev);
    FAIL() << "c_dev as both a and c was launched";
  } catch (const carbide::AliasingError& error) {
    EXPECT_EQ(error.exclusive_param(), "c");
    EXPECT_EQ(error.other_param(), "a");
  }
}

TEST(GeneratedModule, PreparedFromAnotherModuleIsRefused) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  auto first = gpu_tests::load(ctx);
  auto second = gpu_tests::load(ctx);
  auto prepared = first.prepare_vecadd(carbide::LaunchConfig1D(1, 256));
  auto a = carbide::DeviceBuffer<float>::zeroed(stream, 256);
  auto c = carbide::DeviceBuffer<float>::zeroed(stream, 256);
  EXPECT_THROW(second.vecadd(stream, prepared, a, a, c), carbide::Error);
}

TEST(GeneratedModule, UnsafeLaunchChecksDeviceLimitsOnly) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.default_stream();
  auto out = carbide::DeviceBuffer<float>::zeroed(stream, 1000);
  auto module = gpu_tests::load(ctx);
  module.unsafe_launch_fill(stream, carbide::LaunchConfig1D(8, 128), out, 2.5f);
  for (float v : out.to_host_vec(stream)) ASSERT_EQ(v, 2.5f);
  EXPECT_THROW(module.unsafe_launch_fill(stream, carbide::LaunchConfig1D(1, 2048), out, 1.f),
               carbide::LaunchContractError);
}

TEST(Pipelines, AsyncCopiesThroughPinnedMemoryRoundTrip) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.create_stream();
  const std::size_t n = (1 << 20) + 77;
  const auto values = random_floats(n, 7);
  auto in = carbide::PinnedBuffer<float>::uninitialized(ctx, n);
  std::copy(values.begin(), values.end(), in.begin());
  auto out = carbide::PinnedBuffer<float>::uninitialized(ctx, n);
  std::fill(out.begin(), out.end(), std::numeric_limits<float>::quiet_NaN());
  auto a = carbide::DeviceBuffer<float>::uninitialized(stream, n);
  auto c = carbide::DeviceBuffer<float>::uninitialized(stream, n);
  auto module = gpu_tests::load(ctx);
  auto prepared = module.prepare_vecadd(carbide::LaunchConfig1D(carbide::div_ceil(n, 256), 256));
  a.copy_from_host_async(stream, in);
  module.vecadd(stream, prepared, a, a, c);
  c.to_host_async(stream, out);
  stream.synchronize();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += !(out[i] == values[i] + values[i]);
  EXPECT_EQ(wrong, 0u);

  auto shorter = carbide::PinnedBuffer<float>::uninitialized(ctx, n - 1);
  EXPECT_THROW(a.copy_from_host_async(stream, shorter), carbide::Error);
  EXPECT_THROW(c.to_host_async(stream, shorter), carbide::Error);
}

// The consumer's copy is queued at once, while the producer still has twenty launches to run:
// only the event keeps it from reading a value half-way.
TEST(Pipelines, EventOrdersTwoStreams) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto producer = ctx.create_stream();
  auto consumer = ctx.create_stream();
  // Enough work on a GPU for the consumer to get ahead of an unordered producer; a CPU stream
  // runs its work as it is queued, so there a smaller run says the same.
  const std::size_t n = std::size_t(1) << (ctx.is_cpu() ? 16 : 24);
  auto x = carbide::DeviceBuffer<float>::uninitialized(producer, n);
  auto y = carbide::DeviceBuffer<float>::uninitialized(producer, n);
  auto result = carbide::DeviceBuffer<float>::uninitialized(consumer, n);
  auto host = carbide::PinnedBuffer<float>::uninitialized(ctx, n);
  std::fill(host.begin(), host.end(), std::numeric_limits<float>::quiet_NaN());
  auto module = gpu_tests::load(ctx);
  auto prepared = module.prepare_vecadd(carbide::LaunchConfig1D(carbide::div_ceil(n, 256), 256));
  module.unsafe_launch_fill(producer, carbide::LaunchConfig1D(carbide::div_ceil(n, 256), 256), x, 1.f);
  for (int round = 0; round < 10; ++round) {  // x *= 4
    module.vecadd(producer, prepared, x, x, y);
    module.vecadd(producer, prepared, y, y, x);
  }
  auto produced = ctx.create_event();
  producer.record(produced);
  consumer.wait(produced);
  result.copy_from(consumer, x);
  result.to_host_async(consumer, host);
  auto copied = ctx.create_event();
  consumer.record(copied);
  copied.synchronize();
  std::size_t wrong = 0;
  for (float v : host) wrong += !(v == 1048576.f);  // 4^10
  EXPECT_EQ(wrong, 0u);
}

TEST(Pipelines, EventsTimeTheWorkBetweenThem) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.create_stream();
  const std::size_t n = std::size_t(1) << 22;
  auto a = carbide::DeviceBuffer<float>::zeroed(stream, n);
  auto c = carbide::DeviceBuffer<float>::uninitialized(stream, n);
  auto module = gpu_tests::load(ctx);
  auto prepared = module.prepare_vecadd(carbide::LaunchConfig1D(carbide::div_ceil(n, 256), 256));
  auto start = ctx.create_event();
  auto end = ctx.create_event();
  stream.record(start);
  for (int i = 0; i < 10; ++i) module.vecadd(stream, prepared, a, a, c);
  stream.record(end);
  EXPECT_GT(carbide::Event::elapsed_ms(start, end), 0.f);
  EXPECT_THROW(carbide::Event::elapsed_ms(ctx.create_event(), end), carbide::DriverError);
}

TEST(Interop, SliceIsALaunchArgumentOverItsRangeOnly) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.create_stream();
  auto buffer = carbide::DeviceBuffer<float>::zeroed(stream, 1000);
  auto module = gpu_tests::load(ctx);
  auto middle = buffer.slice(256, 300);
  EXPECT_EQ(middle.device_ptr(), buffer.device_ptr() + 256 * sizeof(float));
  EXPECT_EQ(middle.size(), 300u);
  // 1024 threads: those past the slice's 300 elements get nullptr from get_mut.
  module.unsafe_launch_fill(stream, carbide::LaunchConfig1D(8, 128), middle, 2.5f);
  const auto host = buffer.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < host.size(); ++i)
    wrong += !(host[i] == (i >= 256 && i < 556 ? 2.5f : 0.f));
  EXPECT_EQ(wrong, 0u);
  EXPECT_THROW(buffer.slice(900, 200), carbide::Error);
  EXPECT_THROW(buffer.slice(3, 10), carbide::Error);
}

TEST(Interop, SlicesOfOneBufferAreCheckedForAliasingByTheirRanges) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.create_stream();
  const std::size_t n = 1024;
  const auto values = random_floats(3 * n, 11);
  auto whole = carbide::DeviceBuffer<float>::from_host(stream, values);
  auto a = whole.slice(0, n);
  auto b = whole.slice(n, n);
  auto c = whole.slice(2 * n, n);
  auto module = gpu_tests::load(ctx);
  auto prepared = module.prepare_vecadd(carbide::LaunchConfig1D(n / 256, 256));
  module.vecadd(stream, prepared, a, b, c);
  const auto sums = c.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += !(sums[i] == values[i] + values[n + i]);
  EXPECT_EQ(wrong, 0u);
  auto straddling = whole.slice(n / 2, n);
  try {
    module.vecadd(stream, prepared, a, b, straddling);
    FAIL() << "an output overlapping both inputs was launched";
  } catch (const carbide::AliasingError& error) {
    EXPECT_EQ(error.exclusive_param(), "c");
    EXPECT_EQ(error.other_param(), "a");
  }
  EXPECT_THROW(straddling.copy_from(stream, a), carbide::Error);
  c.copy_from(stream, a);
  EXPECT_EQ(c.to_host_vec(stream), std::vector<float>(values.begin(), values.begin() + n));
}

TEST(Interop, BorrowedBufferUsesTheMemoryAndFreesNothing) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.create_stream();
  auto owner = carbide::DeviceBuffer<float>::zeroed(stream, 1000);
  auto module = gpu_tests::load(ctx);
  {
    auto borrowed = carbide::DeviceBuffer<float>::borrow(ctx, owner.device_ptr(), owner.size());
    module.unsafe_launch_fill(stream, carbide::LaunchConfig1D(8, 128), borrowed, 4.f);
    stream.synchronize();
  }
  // Had the borrowed buffer freed the memory, this allocation could take its place, or the
  // copy below would read freed memory.
  auto other = carbide::DeviceBuffer<float>::uninitialized(stream, 1000);
  module.unsafe_launch_fill(stream, carbide::LaunchConfig1D(8, 128), other, 9.f);
  for (float v : owner.to_host_vec(stream)) ASSERT_EQ(v, 4.f);

  // A typed pointer, as CUDA libraries hand them out, borrowed for the first half.
  auto half = carbide::DeviceBuffer<float>::borrow(ctx, owner.device_data(), 500);
  module.unsafe_launch_fill(stream, carbide::LaunchConfig1D(4, 128), half, 1.f);
  const auto host = owner.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < host.size(); ++i) wrong += !(host[i] == (i < 500 ? 1.f : 4.f));
  EXPECT_EQ(wrong, 0u);
  EXPECT_THROW(carbide::DeviceBuffer<float>::borrow(ctx, owner.device_ptr() + 4, 10),
               carbide::Error);
}

TEST(Interop, BorrowedStreamLaunchesAndDestroysNothing) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto owner = ctx.create_stream();
  auto out = carbide::DeviceBuffer<float>::zeroed(owner, 1000);
  auto module = gpu_tests::load(ctx);
  {
    auto borrowed = carbide::Stream::borrow(ctx, owner.native_handle());
    EXPECT_EQ(borrowed.native_handle(), owner.native_handle());
    module.unsafe_launch_fill(borrowed, carbide::LaunchConfig1D(8, 128), out, 3.f);
  }
  // The stream is still alive: the launch queued through the borrowed handle runs on it.
  for (float v : out.to_host_vec(owner)) ASSERT_EQ(v, 3.f);
}

// A matrix allocated elsewhere (here, a buffer's memory as a typed pointer, the way cuBLAS
// users hold one) is a launch's disjoint_span2d; it frees nothing, and device_data() gives the
// pointer back.
TEST(Interop, BorrowedMatrixUsesTheMemoryAndFreesNothing) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.create_stream();
  const std::size_t rows = 37, cols = 53;
  auto owner = carbide::DeviceBuffer<float>::zeroed(stream, rows * cols + 8);
  auto module = gpu_vocabulary::load(ctx);
  {
    auto matrix = carbide::DeviceBuffer2D<float>::borrow(ctx, owner.device_data(), rows, cols);
    EXPECT_EQ(matrix.device_data(), owner.device_data());
    EXPECT_EQ(matrix.bytes(), rows * cols * sizeof(float));
    module.coordinates(stream,
                       module.prepare_coordinates(carbide::LaunchConfig2D(
                           {carbide::div_ceil(cols, 16), carbide::div_ceil(rows, 16), 1}, {16, 16, 1})),
                       matrix);
    stream.synchronize();
  }
  // Had the borrowed matrix freed the memory, this allocation could take its place and the
  // fill below overwrite what the launch wrote.
  auto other = carbide::DeviceBuffer<float>::uninitialized(stream, rows * cols + 8);
  auto fill_module = gpu_tests::load(ctx);
  fill_module.unsafe_launch_fill(stream, carbide::LaunchConfig1D(16, 128), other, -1.f);
  const auto host = owner.to_host_vec(stream);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < host.size(); ++i)
    wrong += host[i] != (i < rows * cols ? float(i / cols * 1000 + i % cols) : 0.f);
  EXPECT_EQ(wrong, 0u);
  EXPECT_THROW(carbide::DeviceBuffer2D<float>::borrow(ctx, owner.device_ptr() + 4, rows, cols),
               carbide::Error);
}

TEST(Graphs, CapturedCopiesAndLaunchesReplay) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.create_stream();
  const std::size_t n = (1 << 20) + 77;
  auto in = carbide::PinnedBuffer<float>::uninitialized(ctx, n);
  auto out = carbide::PinnedBuffer<float>::uninitialized(ctx, n);
  std::fill(in.begin(), in.end(), 1.f);
  std::fill(out.begin(), out.end(), std::numeric_limits<float>::quiet_NaN());
  auto a = carbide::DeviceBuffer<float>::uninitialized(stream, n);
  auto c = carbide::DeviceBuffer<float>::uninitialized(stream, n);
  auto module = gpu_tests::load(ctx);
  auto prepared = module.prepare_vecadd(carbide::LaunchConfig1D(carbide::div_ceil(n, 256), 256));

  stream.begin_capture();
  a.copy_from_host_async(stream, in);
  module.vecadd(stream, prepared, a, a, c);
  c.to_host_async(stream, out);
  carbide::Graph graph = stream.end_capture();
  stream.synchronize();
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](float v) { return std::isnan(v); }))
      << "the captured work ran while it was captured";

  for (unsigned replay = 0; replay < 2; ++replay) {
    const auto values = random_floats(n, 100 + replay);  // new inputs, same pinned buffer
    std::copy(values.begin(), values.end(), in.begin());
    graph.launch(stream);
    stream.synchronize();
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += !(out[i] == values[i] + values[i]);
    EXPECT_EQ(wrong, 0u) << "replay " << replay;
  }
}

TEST(Graphs, TheDefaultStreamCannotBeCaptured) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  try {
    ctx.default_stream().begin_capture();
    FAIL() << "the default stream began a capture";
  } catch (const carbide::Error& error) {
    EXPECT_STREQ(error.what(),
                 "Stream::begin_capture: the default stream cannot be captured; capture a stream "
                 "from Context::create_stream()");
  }
}

TEST(Graphs, WaitingOnTheHostSpoilsTheCaptureAndEndsIt) {
  CARBIDE_REQUIRE_DEVICE();
  auto ctx = test_context();
  auto stream = ctx.create_stream();
  auto out = carbide::DeviceBuffer<float>::zeroed(stream, 1000);
  auto module = gpu_tests::load(ctx);
  stream.begin_capture();
  EXPECT_THROW(stream.synchronize(), carbide::DriverError);
  try {
    stream.end_capture();
    FAIL() << "a spoiled capture became a graph";
  } catch (const carbide::DriverError& error) {
    EXPECT_EQ(error.result_name(), "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED");
  }
  // The capture is over: the stream runs work again.
  module.unsafe_launch_fill(stream, carbide::LaunchConfig1D(8, 128), out, 5.f);
  for (float v : out.to_host_vec(stream)) ASSERT_EQ(v, 5.f);
}

}  // namespace
