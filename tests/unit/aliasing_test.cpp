// The runtime aliasing check compares address ranges; it needs no GPU.
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
