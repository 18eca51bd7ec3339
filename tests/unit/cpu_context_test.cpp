// The host API on the CPU context (DESIGN §11): buffers in host memory, slices, borrowed
// pointers, pinned buffers, copies, streams, events, graphs, tensors, the limits table, and
// create_default's choice.
#include "cpu_test_support.hpp"

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

namespace {

using namespace cpu_tests;
using testing::HasSubstr;

std::vector<float> iota(std::size_t n, float first = 0.f) {
  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = first + float(i);
  return values;
}

TEST(CpuContext, LimitsAreTheCpuTable) {
  const auto ctx = carbide::Context::create_cpu();
  EXPECT_TRUE(ctx.is_cpu());
  EXPECT_EQ(ctx.ordinal(), carbide::Context::kCpuOrdinal);
  const carbide::DeviceLimits& limits = ctx.limits();
  EXPECT_EQ(limits.name, "CPU (" + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " threads)");
  EXPECT_EQ(limits.max_threads_per_block, 1024u);
  EXPECT_EQ(limits.max_block, (carbide::Extent3{1024, 1024, 64}));
  EXPECT_EQ(limits.max_grid, (carbide::Extent3{(1ull << 31) - 1, 65535, 65535}));
  EXPECT_EQ(limits.max_shared_per_block, 48u * 1024);
  // Any dynamic shared memory, any min_compute.
  carbide::LaunchContract contract;
  contract.kernel = "k";
  contract.block = {256, 1, 1};
  contract.dynamic_shared_bytes = std::uint64_t(1) << 40;
  contract.min_compute = 120;
  EXPECT_NO_THROW(carbide::validate_launch(contract, carbide::LaunchConfig1D(1, 256, contract.dynamic_shared_bytes), limits,
                                           carbide::KernelFootprint{48 * 1024, 0}));
}

TEST(CpuContext, CarbideCpuThreadsSetsTheWorkersOfANewContext) {
  ScopedEnvironment one("CARBIDE_CPU_THREADS", "1");
  {
    ScopedEnvironment bad("CARBIDE_CPU_THREADS", "many");
    EXPECT_THROW(carbide::Context::create_cpu(), carbide::Error);
  }
  const auto ctx = carbide::Context::create_cpu();  // the test's first: no other holds the context
  EXPECT_EQ(ctx.limits().name, "CPU (1 thread)");
  auto stream = ctx.create_stream();
  auto module = load(ctx);
  auto out = carbide::DeviceBuffer<float>::zeroed(stream, 64);
  launch(module, kVecadd, stream, carbide::LaunchConfig1D(1, 64), carbide::detail::read_view(out),
         carbide::detail::read_view(out), carbide::detail::exclusive_view(out));
}

TEST(CpuContext, EveryCallSharesOneContext) {
  const auto a = carbide::Context::create_cpu(), b = carbide::Context::create_cpu();
  EXPECT_EQ(a.state(), b.state());
}

TEST(CpuContext, BuffersLiveInAlignedHostMemory) {
  const auto ctx = carbide::Context::create_cpu();
  auto stream = ctx.default_stream();
  auto buffer = carbide::DeviceBuffer<float>::from_host(stream, iota(1000));
  EXPECT_EQ(buffer.device_ptr() % 256, 0u);
  EXPECT_EQ(buffer.device_data()[999], 999.f);  // a real host pointer
  EXPECT_EQ(buffer.to_host_vec(stream), iota(1000));
  buffer.copy_from_host(stream, iota(1000, 5.f));
  EXPECT_EQ(buffer.to_host_vec(stream)[0], 5.f);
  EXPECT_EQ(carbide::DeviceBuffer<double>::zeroed(stream, 10).to_host_vec(stream), std::vector<double>(10, 0.0));
  EXPECT_EQ(carbide::DeviceBuffer<int>::uninitialized(stream, 7).size(), 7u);
  EXPECT_THROW(buffer.copy_from_host(stream, iota(999)), carbide::Error);
}

TEST(CpuContext, SlicesAndBorrowedPointersAreViews) {
  const auto ctx = carbide::Context::create_cpu();
  auto stream = ctx.create_stream();
  auto whole = carbide::DeviceBuffer<float>::from_host(stream, iota(1024));
  auto middle = whole.slice(256, 300);
  EXPECT_EQ(middle.device_ptr(), whole.device_ptr() + 256 * sizeof(float));
  EXPECT_EQ(middle.to_host_vec(stream)[0], 256.f);
  EXPECT_THROW(whole.slice(3, 10), carbide::Error);  // off the 16-byte boundary, as on a GPU
  EXPECT_THROW(whole.slice(900, 200), carbide::Error);

  alignas(16) static float host[64];
  for (int i = 0; i < 64; ++i) host[i] = float(-i);
  {
    auto borrowed = carbide::DeviceBuffer<float>::borrow(ctx, host, 64);
    EXPECT_EQ(borrowed.to_host_vec(stream)[63], -63.f);
    borrowed.copy_from(stream, whole.slice(0, 64));
  }
  EXPECT_EQ(host[63], 63.f);  // written through, and not freed
  EXPECT_THROW(carbide::DeviceBuffer<float>::borrow(ctx, host + 1, 4), carbide::Error);

  auto a = whole.slice(0, 512), overlapping = whole.slice(256, 512);
  EXPECT_THROW(overlapping.copy_from(stream, a), carbide::Error);
}

TEST(CpuContext, MatricesAndTensorsKeepTheirShape) {
  const auto ctx = carbide::Context::create_cpu();
  auto stream = ctx.create_stream();
  auto matrix = carbide::DeviceBuffer2D<float>::from_host(stream, iota(6), 2, 3);
  EXPECT_EQ(matrix.pitch(), 3u);
  EXPECT_EQ(matrix.to_host_vec(stream), iota(6));
  auto tensor = carbide::Tensor<float>::from_host(stream, iota(12), {3, 4});
  auto partition = std::move(tensor).partition(carbide::tile::shape<2, 4>{});
  EXPECT_TRUE(tensor.empty());
  EXPECT_EQ(partition.tile_count(), 2u);
  tensor = std::move(partition).unpartition();
  EXPECT_EQ(tensor.to_host_vec(stream), iota(12));
}

TEST(CpuContext, AsyncCopiesThroughPinnedMemoryRoundTrip) {
  const auto ctx = carbide::Context::create_cpu();
  auto stream = ctx.create_stream();
  auto in = carbide::PinnedBuffer<float>::uninitialized(ctx, 100);
  auto out = carbide::PinnedBuffer<float>::uninitialized(ctx, 100);
  for (std::size_t i = 0; i < 100; ++i) in[i] = float(i) / 2;
  auto device = carbide::DeviceBuffer<float>::uninitialized(stream, 100);
  device.copy_from_host_async(stream, in);
  device.to_host_async(stream, out);
  stream.synchronize();
  for (std::size_t i = 0; i < 100; ++i) EXPECT_EQ(out[i], in[i]);
  auto shorter = carbide::PinnedBuffer<float>::uninitialized(ctx, 99);
  EXPECT_THROW(device.to_host_async(stream, shorter), carbide::Error);
}

TEST(CpuContext, EventsTimeTheWorkBetweenThemWithTheHostClock) {
  const auto ctx = carbide::Context::create_cpu();
  auto stream = ctx.create_stream();
  auto start = ctx.create_event(), end = ctx.create_event();
  stream.record(start);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  stream.record(end);
  end.synchronize();
  stream.wait(end);
  const float ms = carbide::Event::elapsed_ms(start, end);
  EXPECT_GE(ms, 19.f);
  EXPECT_LT(ms, 2000.f);
  try {
    carbide::Event::elapsed_ms(ctx.create_event(), end);
    FAIL() << "an event never recorded was timed";
  } catch (const carbide::DriverError& error) {
    EXPECT_EQ(error.result_name(), "CUDA_ERROR_INVALID_HANDLE");  // as the driver says it
  }
}

TEST(CpuContext, CapturedCopiesAndLaunchesReplayWithTheirArguments) {
  const auto ctx = carbide::Context::create_cpu();
  auto stream = ctx.create_stream();
  auto module = load(ctx);
  const std::size_t n = 1000;
  auto in = carbide::PinnedBuffer<float>::uninitialized(ctx, n);
  auto out = carbide::PinnedBuffer<float>::uninitialized(ctx, n);
  std::fill(in.begin(), in.end(), 1.f);
  std::fill(out.begin(), out.end(), std::numeric_limits<float>::quiet_NaN());
  auto a = carbide::DeviceBuffer<float>::uninitialized(stream, n);
  auto c = carbide::DeviceBuffer<float>::uninitialized(stream, n);

  stream.begin_capture();
  a.copy_from_host_async(stream, in);
  {
    // The views die before the graph runs: the graph keeps the argument bytes.
    launch(module, kVecadd, stream, carbide::LaunchConfig1D(4, 256), carbide::detail::read_view(a),
           carbide::detail::read_view(a), carbide::detail::exclusive_view(c));
  }
  c.to_host_async(stream, out);
  carbide::Graph graph = stream.end_capture();
  stream.synchronize();
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](float v) { return std::isnan(v); }))
      << "the captured work ran while it was captured";

  for (int replay = 0; replay < 2; ++replay) {
    for (std::size_t i = 0; i < n; ++i) in[i] = float(i * (replay + 1));
    graph.launch(stream);
    stream.synchronize();
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 2.f * float(i * (replay + 1))) << "replay " << replay;
  }
}

TEST(CpuContext, TheDefaultStreamCannotBeCaptured) {
  const auto ctx = carbide::Context::create_cpu();
  EXPECT_THROW(ctx.default_stream().begin_capture(), carbide::Error);
}

TEST(CpuContext, WaitingOnTheHostSpoilsTheCaptureAsOnCuda) {
  const auto ctx = carbide::Context::create_cpu();
  auto stream = ctx.create_stream();
  auto buffer = carbide::DeviceBuffer<float>::zeroed(stream, 10);
  stream.begin_capture();
  EXPECT_THROW(buffer.to_host_vec(stream), carbide::DriverError);  // a synchronous copy
  try {
    stream.end_capture();
    FAIL() << "a spoiled capture became a graph";
  } catch (const carbide::DriverError& error) {
    EXPECT_EQ(error.result_name(), "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED");
  }
  buffer.copy_from_host(stream, iota(10));  // the capture is over
  EXPECT_EQ(buffer.to_host_vec(stream), iota(10));
}

TEST(CpuContext, AModuleWithoutCpuFormsIsRefusedOnTheCpu) {
  static const unsigned char image[] = {0};
  try {
    carbide::detail::LoadedModule(carbide::Context::create_cpu(), image, {"vecadd"});
    FAIL() << "loaded";
  } catch (const carbide::Error& error) {
    EXPECT_THAT(error.what(), HasSubstr("its stubs give 0 CPU forms for its 1 kernels; translate it again"));
  }
}

TEST(CpuContext, CreateDefaultTakesTheCpuWhereThereIsNoGpuAndSaysWhy) {
  ScopedEnvironment unset("CARBIDE_DEVICE", std::nullopt);
  if (carbide::Context::device_count() > 0) GTEST_SKIP() << "this machine has a GPU, which create_default takes";
  testing::internal::CaptureStderr();
  const auto ctx = carbide::Context::create_default();
  EXPECT_TRUE(ctx.is_cpu());
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "carbide: no CUDA device (" + carbide::Context::unavailable_reason() + "); running kernels on the CPU\n");
}

TEST(CpuContext, CarbideDeviceForcesTheChoice) {
  {
    ScopedEnvironment cpu("CARBIDE_DEVICE", "cpu");
    testing::internal::CaptureStderr();
    EXPECT_TRUE(carbide::Context::create_default().is_cpu());
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "carbide: running kernels on the CPU (CARBIDE_DEVICE=cpu)\n");
  }
  {
    ScopedEnvironment bad("CARBIDE_DEVICE", "tpu");
    try {
      carbide::Context::create_default();
      FAIL() << "CARBIDE_DEVICE=tpu made a context";
    } catch (const carbide::Error& error) {
      EXPECT_STREQ(error.what(), "CARBIDE_DEVICE=tpu: expected cpu, gpu or gpu:N (N the ordinal of a CUDA device)");
    }
  }
  const int count = carbide::Context::device_count();
  ScopedEnvironment gpu("CARBIDE_DEVICE", "gpu:" + std::to_string(count));  // one past the last
  EXPECT_THROW(carbide::Context::create_default(), carbide::NoDeviceError);
  if (count == 0) {
    ScopedEnvironment any_gpu("CARBIDE_DEVICE", "gpu");
    EXPECT_THROW(carbide::Context::create_default(), carbide::NoDeviceError);
  }
}

}  // namespace
