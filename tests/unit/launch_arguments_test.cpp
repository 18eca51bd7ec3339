// The checks a launch makes on its arguments (aliasing ranges, devices, sizes); they need no GPU.
#include <carbide/runtime.hpp>

#include <gtest/gtest.h>

namespace carbide::detail {
namespace {

TEST(RuntimeAliasing, DistinctBuffersPass) {
  EXPECT_NO_THROW(check_no_aliasing("k", {{"a", 0x1000, 256, false},
                                          {"b", 0x2000, 256, false},
                                          {"c", 0x3000, 256, true}}));
}

TEST(RuntimeAliasing, TwoReadViewsMayShareABuffer) {
  EXPECT_NO_THROW(check_no_aliasing("k", {{"a", 0x1000, 256, false}, {"b", 0x1000, 256, false}}));
}

TEST(RuntimeAliasing, ExclusiveBufferAlsoReadIsRejectedNamingBoth) {
  try {
    check_no_aliasing("kernels::vecadd",
                      {{"a", 0x1000, 256, false}, {"b", 0x2000, 256, false}, {"c", 0x1000, 256, true}});
    FAIL() << "c and a share memory but the launch was accepted";
  } catch (const AliasingError& error) {
    EXPECT_EQ(error.kernel(), "kernels::vecadd");
    EXPECT_EQ(error.exclusive_param(), "c");
    EXPECT_EQ(error.other_param(), "a");
  }
}

TEST(RuntimeAliasing, PartialOverlapIsRejected) {
  EXPECT_THROW(check_no_aliasing("k", {{"out", 0x1000, 256, true}, {"in", 0x10ff, 16, false}}),
               AliasingError);
  // Adjacent ranges touch but do not overlap.
  EXPECT_NO_THROW(check_no_aliasing("k", {{"out", 0x1000, 256, true}, {"in", 0x1100, 16, false}}));
}

TEST(RuntimeAliasing, TwoExclusiveViewsOfOneBufferAreRejected) {
  EXPECT_THROW(check_no_aliasing("k", {{"x", 0x1000, 64, true}, {"y", 0x1000, 64, true}}),
               AliasingError);
}

TEST(RuntimeAliasing, EmptyBuffersNeverOverlap) {
  EXPECT_NO_THROW(check_no_aliasing("k", {{"x", 0, 0, true}, {"y", 0, 0, false}}));
}

}  // namespace
}  // namespace carbide::detail

namespace carbide::detail {
namespace {

TEST(LaunchArguments, ArgumentsOnAnotherDeviceAreRejected) {
  EXPECT_NO_THROW(check_same_device("k", 0, {{"stream", 0}, {"a", 0}}));
  try {
    check_same_device("kernels::vecadd", 0, {{"stream", 0}, {"a", 0}, {"c", 1}});
    FAIL() << "a buffer of device 1 was accepted for a module on device 0";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "launch of kernels::vecadd rejected: 'c' belongs to device 1, the module was "
                 "loaded on device 0; allocate it (or create the stream) from the module's context");
  }
  EXPECT_THROW(check_same_device("k", 1, {{"stream", 0}}), Error);
}

TEST(LaunchArguments, DeviceCopiesNeedEqualSizesOnOneDevice) {
  EXPECT_NO_THROW(check_copy("DeviceBuffer::copy_from", 10, 10, 0, 0, 0));
  EXPECT_THROW(check_copy("DeviceBuffer::copy_from", 10, 9, 0, 0, 0), Error);
  EXPECT_THROW(check_copy("DeviceBuffer::copy_from", 10, 10, 0, 0, 1), Error);
  EXPECT_THROW(check_copy("DeviceBuffer::copy_from", 10, 10, 1, 0, 0), Error);
}

TEST(LaunchArguments, HostCopiesNeedEqualSizesAndTheStreamsDevice) {
  EXPECT_NO_THROW(check_host_copy("DeviceBuffer::to_host_async", 10, 10, 1, 1));
  try {
    check_host_copy("DeviceBuffer::copy_from_host_async", 10, 9, 0, 0);
    FAIL() << "a host buffer of 9 elements was accepted for a device buffer of 10";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "DeviceBuffer::copy_from_host_async: the device buffer holds 10 elements, the "
                 "host buffer 9; copy between equal sizes");
  }
  try {
    check_host_copy("DeviceBuffer::to_host_async", 10, 10, 0, 1);
    FAIL() << "a buffer of device 1 was copied on a stream of device 0";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "DeviceBuffer::to_host_async: the device buffer lives on device 1 and the stream "
                 "on device 0; copy on a stream of the buffer's device");
  }
}

TEST(LaunchArguments, BufferSizesThatOverflowAreRejected) {
  EXPECT_EQ(checked_bytes("DeviceBuffer", 1000, 4), 4000u);
  EXPECT_EQ(checked_bytes("DeviceBuffer", 0, 4), 0u);
  EXPECT_THROW(checked_bytes("DeviceBuffer", std::size_t(1) << 62, 8), Error);
  EXPECT_THROW(checked_bytes("DeviceBuffer2D", std::size_t(1) << 33, std::size_t(1) << 33), Error);
}

}  // namespace
}  // namespace carbide::detail
