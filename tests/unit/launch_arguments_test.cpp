// The checks a launch makes on its arguments (aliasing ranges, devices, sizes); they need no GPU.
#include <carbide/runtime.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <string>

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

TEST(LaunchArguments, DeviceCopiesBetweenOverlappingSlicesAreRejected) {
  EXPECT_NO_THROW(check_copy_ranges("DeviceBuffer::copy_from", 0x1000, 0x1100, 256));  // adjacent
  EXPECT_NO_THROW(check_copy_ranges("DeviceBuffer::copy_from", 0x1000, 0x1000, 256));  // itself
  try {
    check_copy_ranges("DeviceBuffer::copy_from", 0x1000, 0x1010, 256);
    FAIL() << "a copy between overlapping ranges was accepted";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "DeviceBuffer::copy_from: the source and destination overlap (slices of one "
                 "buffer), where a copy is undefined; copy through a buffer of their own");
  }
  EXPECT_THROW(check_copy_ranges("DeviceBuffer::copy_from", 0x1010, 0x1000, 256), Error);
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

TEST(LaunchArguments, SlicesStayWithinTheirBuffer) {
  EXPECT_NO_THROW(check_slice(0, 1000, 1000, 4));
  EXPECT_NO_THROW(check_slice(256, 300, 1000, 4));
  EXPECT_NO_THROW(check_slice(1000, 0, 1000, 4));  // empty, at the end
  try {
    check_slice(900, 200, 1000, 4);
    FAIL() << "elements 900 to 1100 of 1000 were accepted";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "DeviceBuffer::slice(offset 900, count 200) of a buffer of 1000 elements: the "
                 "range runs past its end");
  }
  EXPECT_THROW(check_slice(1001, 0, 1000, 4), Error);
  // offset + count wraps to a small number; the range is still refused.
  EXPECT_THROW(check_slice(8, std::numeric_limits<std::size_t>::max() - 3, 1000, 4), Error);
}

TEST(LaunchArguments, SlicesStartWhereAViewMayStart) {
  EXPECT_NO_THROW(check_slice(4, 10, 100, 4));
  EXPECT_NO_THROW(check_slice(2, 10, 100, 8));
  EXPECT_NO_THROW(check_slice(1, 10, 100, 48));
  EXPECT_NO_THROW(check_slice(3, 0, 100, 4));  // an empty view moves nothing
  try {
    check_slice(3, 10, 100, 4);
    FAIL() << "a slice starting 12 bytes in was accepted";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "DeviceBuffer::slice(offset 3, count 10): element 3 starts 12 bytes in, not on a "
                 "16-byte boundary; kernels move whole chunks of up to 16 bytes from a view's "
                 "start, so start it at a multiple of 4 elements");
  }
  try {
    check_slice(2, 1, 100, 12);
    FAIL() << "a slice starting 24 bytes in was accepted";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("a multiple of 4 elements"), std::string::npos)
        << error.what();
  }
  EXPECT_THROW(check_slice(1, 1, 100, 1), Error);
}

TEST(LaunchArguments, BorrowedMemoryMustBeAView) {
  EXPECT_NO_THROW(check_borrow(0x7f0000000000, 1000, 4));
  EXPECT_NO_THROW(check_borrow(0, 0, 4));
  try {
    check_borrow(0, 10, 4);
    FAIL() << "a null pointer was borrowed for 10 elements";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "DeviceBuffer::borrow: a null device pointer for 10 elements");
  }
  try {
    check_borrow(0x7f0000000004, 10, 4);
    FAIL() << "a pointer 4 bytes past a 16-byte boundary was borrowed";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "DeviceBuffer::borrow: device pointer 0x7f0000000004 is not on a 16-byte "
                 "boundary; kernels move whole chunks of up to 16 bytes from a view's start");
  }
  EXPECT_THROW(check_borrow(std::numeric_limits<DevicePtr>::max() - 15, 8, 4), Error);
  EXPECT_THROW(check_borrow(0x1000, std::size_t(1) << 62, 8), Error);
}

TEST(LaunchArguments, BufferSizesThatOverflowAreRejected) {
  EXPECT_EQ(checked_bytes("DeviceBuffer", 1000, 4), 4000u);
  EXPECT_EQ(checked_bytes("DeviceBuffer", 0, 4), 0u);
  EXPECT_THROW(checked_bytes("DeviceBuffer", std::size_t(1) << 62, 8), Error);
  EXPECT_THROW(checked_bytes("DeviceBuffer2D", std::size_t(1) << 33, std::size_t(1) << 33), Error);
}

}  // namespace
}  // namespace carbide::detail
