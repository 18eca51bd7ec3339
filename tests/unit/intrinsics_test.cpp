// The host definitions of CUDA's intrinsics (<carbide/intrinsics.hpp>) compute what the device
// computes, so a Carbide program's host build gives the device's answers.
#include <carbide/intrinsics.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <type_traits>

namespace {

TEST(Intrinsics, FastMath) {
  EXPECT_FLOAT_EQ(__fdividef(1.f, 4.f), 0.25f);
  EXPECT_NEAR(rsqrtf(4.f), 0.5f, 1e-6f);
  EXPECT_NEAR(__expf(1.f), 2.7182818f, 1e-5f);
  EXPECT_NEAR(__powf(2.f, 10.f), 1024.f, 1e-3f);
  EXPECT_NEAR(__logf(std::exp(2.f)), 2.f, 1e-5f);
  float s = 0, c = 0;
  sincospif(0.5f, &s, &c);
  EXPECT_NEAR(s, 1.f, 1e-6f);
  EXPECT_NEAR(c, 0.f, 1e-6f);
}

TEST(Intrinsics, SaturateClampsAndTakesNaNToZero) {
  EXPECT_EQ(__saturatef(2.f), 1.f);
  EXPECT_EQ(__saturatef(-1.f), 0.f);
  EXPECT_EQ(__saturatef(0.25f), 0.25f);
  EXPECT_EQ(__saturatef(std::numeric_limits<float>::quiet_NaN()), 0.f);
}

// CUDA's min and max: a signed and an unsigned operand compare as unsigned, as on the device;
// floats as fminf and fmaxf, a NaN losing to a number.
TEST(Intrinsics, MinAndMaxTakeCudasOverloads) {
  EXPECT_EQ(min(3, -4), -4);
  EXPECT_EQ(max(3u, 4u), 4u);
  EXPECT_EQ(min(-1, 1u), 1u);  // -1 converts to 0xffffffff
  EXPECT_EQ(max(1u, -1), 0xffffffffu);
  EXPECT_EQ(min(5ll, -7ll), -7ll);
  EXPECT_EQ(max(1ull << 40, 3ull), 1ull << 40);
  EXPECT_EQ(min(2.5f, 1.5f), 1.5f);
  EXPECT_EQ(max(std::numeric_limits<float>::quiet_NaN(), 1.f), 1.f);
  EXPECT_EQ(min(1.f, 0.5), 0.5);
  static_assert(std::is_same_v<decltype(min(1.f, 0.5)), double>);
  static_assert(std::is_same_v<decltype(max(1, 2u)), unsigned>);
}

TEST(Intrinsics, BitCounting) {
  EXPECT_EQ(__popc(0xF0F0u), 8);
  EXPECT_EQ(__popcll(~0ull), 64);
  EXPECT_EQ(__clz(1), 31);
  EXPECT_EQ(__clz(0), 32);
  EXPECT_EQ(__clz(-1), 0);
  EXPECT_EQ(__clzll(1), 63);
  EXPECT_EQ(__ffs(8), 4);
  EXPECT_EQ(__ffs(0), 0);
  EXPECT_EQ(__brev(1u), 0x80000000u);
  EXPECT_EQ(__brevll(1ull), 0x8000000000000000ull);
}

TEST(Intrinsics, NarrowAndHighMultiplies) {
  EXPECT_EQ(__umulhi(0x80000000u, 4u), 2u);
  EXPECT_EQ(__mulhi(-0x40000000, 8), -2);
  EXPECT_EQ(__umul64hi(1ull << 63, 4ull), 2ull);
  EXPECT_EQ(__mul24(-2, 3), -6);
  EXPECT_EQ(__mul24(0x1000001, 2), 2);  // only the low 24 bits take part
  EXPECT_EQ(__umul24(0x1000002u, 3u), 6u);
  EXPECT_EQ(__sad(3, 7, 1u), 5u);
}

TEST(Intrinsics, Reinterpretation) {
  EXPECT_EQ(__float_as_uint(1.f), 0x3f800000u);
  EXPECT_EQ(__uint_as_float(0x3f800000u), 1.f);
  EXPECT_EQ(__float_as_int(-0.f), std::numeric_limits<int>::min());
  EXPECT_EQ(__double_as_longlong(1.0), 0x3ff0000000000000ll);
}

}  // namespace
