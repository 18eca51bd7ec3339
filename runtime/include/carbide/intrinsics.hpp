// CUDA's intrinsics and fast-math functions, for the host parse and the host build of a Carbide
// program (DESIGN §3.1: they are part of the vocabulary). Under nvcc CUDA declares them itself
// and this file adds nothing, so the generated device code calls CUDA's own. On the host each
// has a definition that computes what the device computes (to the host's rounding), so a file
// that uses them still builds and runs as plain C++.
//
// They live in carbide::intrinsics and are brought to the global namespace, where CUDA has them,
// by using-declarations: the translator then knows them as Carbide's (translator/model/
// vocabulary.cpp lists them) and never copies them into the generated .cu. glibc declares the
// fast-math names (__expf, __sinf, ...) without defining them; those get C-linkage definitions
// instead, so the declarations agree.
#pragma once

#if !defined(__CUDACC__)

#include <cmath>
#include <cstdint>
#include <cstring>

namespace carbide::intrinsics {

namespace detail {
template <class To, class From>
inline To bits_as(From value) {
  static_assert(sizeof(To) == sizeof(From), "reinterpreting needs equal sizes");
  To result;
  std::memcpy(&result, &value, sizeof result);
  return result;
}
}  // namespace detail

// Single precision.
inline float __fdividef(float a, float b) { return a / b; }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }  // NaN → 0
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float norm3df(float a, float b, float c) { return std::sqrt(a * a + b * b + c * c); }
inline float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
inline void sincospif(float x, float* s, float* c) {
  const float pi = 3.14159265358979323846f;
  *s = std::sin(pi * x);
  *c = std::cos(pi * x);
}

// Double precision.
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline double __drcp_rn(double x) { return 1.0 / x; }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }

// Integers.
inline int __popc(unsigned x) { return int(__builtin_popcount(x)); }
inline int __popcll(unsigned long long x) { return int(__builtin_popcountll(x)); }
inline int __clz(int x) { return x == 0 ? 32 : int(__builtin_clz(unsigned(x))); }
inline int __clzll(long long x) { return x == 0 ? 64 : int(__builtin_clzll((unsigned long long)x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  unsigned reversed = 0;
  for (int bit = 0; bit < 32; ++bit) reversed |= ((x >> bit) & 1u) << (31 - bit);
  return reversed;
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(unsigned(x))) << 32) | __brev(unsigned(x >> 32));
}
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mul24(int a, int b) {
  const auto low24 = [](int v) { return std::int32_t(std::uint32_t(v) << 8) >> 8; };  // sign-extended
  return int(std::uint32_t(low24(a)) * std::uint32_t(low24(b)));
}
inline unsigned __umulhi(unsigned a, unsigned b) {
  return unsigned((std::uint64_t(a) * std::uint64_t(b)) >> 32);
}
inline int __mulhi(int a, int b) { return int((std::int64_t(a) * std::int64_t(b)) >> 32); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline long long __mul64hi(long long a, long long b) {
  return static_cast<long long>((static_cast<__int128>(a) * b) >> 64);
}
inline unsigned __sad(int a, int b, unsigned c) { return (a > b ? unsigned(a - b) : unsigned(b - a)) + c; }
inline unsigned __usad(unsigned a, unsigned b, unsigned c) { return (a > b ? a - b : b - a) + c; }

// CUDA's min and max overloads: a signed and an unsigned operand of one width compare as
// unsigned, and a float with a double as doubles, as in CUDA's math_functions.hpp.
#define CARBIDE_MIN_MAX(Result, A, B)                                                        \
  inline Result min(A a, B b) {                                                              \
    return static_cast<Result>(a) < static_cast<Result>(b) ? static_cast<Result>(a) : static_cast<Result>(b); \
  }                                                                                           \
  inline Result max(A a, B b) {                                                              \
    return static_cast<Result>(a) > static_cast<Result>(b) ? static_cast<Result>(a) : static_cast<Result>(b); \
  }
#define CARBIDE_MIN_MAX_OF_WIDTH(Signed, Unsigned) \
  CARBIDE_MIN_MAX(Signed, Signed, Signed)          \
  CARBIDE_MIN_MAX(Unsigned, Unsigned, Unsigned)    \
  CARBIDE_MIN_MAX(Unsigned, Signed, Unsigned)      \
  CARBIDE_MIN_MAX(Unsigned, Unsigned, Signed)
CARBIDE_MIN_MAX_OF_WIDTH(int, unsigned)
CARBIDE_MIN_MAX_OF_WIDTH(long, unsigned long)
CARBIDE_MIN_MAX_OF_WIDTH(long long, unsigned long long)
#undef CARBIDE_MIN_MAX_OF_WIDTH
#undef CARBIDE_MIN_MAX
// fmin and fmax for floats: a NaN loses to a number.
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline double min(float a, double b) { return std::fmin(double(a), b); }
inline double max(float a, double b) { return std::fmax(double(a), b); }
inline double min(double a, float b) { return std::fmin(a, double(b)); }
inline double max(double a, float b) { return std::fmax(a, double(b)); }

// Reinterpretation.
inline float __int_as_float(int x) { return detail::bits_as<float>(x); }
inline int __float_as_int(float x) { return detail::bits_as<int>(x); }
inline float __uint_as_float(unsigned x) { return detail::bits_as<float>(x); }
inline unsigned __float_as_uint(float x) { return detail::bits_as<unsigned>(x); }
inline double __longlong_as_double(long long x) { return detail::bits_as<double>(x); }
inline long long __double_as_longlong(double x) { return detail::bits_as<long long>(x); }

}  // namespace carbide::intrinsics

using carbide::intrinsics::__brev;
using carbide::intrinsics::__brevll;
using carbide::intrinsics::__clz;
using carbide::intrinsics::__clzll;
using carbide::intrinsics::__dadd_rn;
using carbide::intrinsics::__dmul_rn;
using carbide::intrinsics::__double_as_longlong;
using carbide::intrinsics::__drcp_rn;
using carbide::intrinsics::__fadd_rn;
using carbide::intrinsics::__fdiv_rn;
using carbide::intrinsics::__fdividef;
using carbide::intrinsics::__ffs;
using carbide::intrinsics::__ffsll;
using carbide::intrinsics::__float_as_int;
using carbide::intrinsics::__float_as_uint;
using carbide::intrinsics::__fma_rn;
using carbide::intrinsics::__fmaf_rn;
using carbide::intrinsics::__fmul_rn;
using carbide::intrinsics::__frcp_rn;
using carbide::intrinsics::__fsqrt_rn;
using carbide::intrinsics::__fsub_rn;
using carbide::intrinsics::__int_as_float;
using carbide::intrinsics::__longlong_as_double;
using carbide::intrinsics::__mul24;
using carbide::intrinsics::__mul64hi;
using carbide::intrinsics::__mulhi;
using carbide::intrinsics::__popc;
using carbide::intrinsics::__popcll;
using carbide::intrinsics::__sad;
using carbide::intrinsics::__saturatef;
using carbide::intrinsics::__uint_as_float;
using carbide::intrinsics::__umul24;
using carbide::intrinsics::__umul64hi;
using carbide::intrinsics::__umulhi;
using carbide::intrinsics::__usad;
using carbide::intrinsics::max;
using carbide::intrinsics::min;
using carbide::intrinsics::norm3df;
using carbide::intrinsics::rcbrtf;
using carbide::intrinsics::rnorm3df;
using carbide::intrinsics::rsqrt;
using carbide::intrinsics::rsqrtf;
using carbide::intrinsics::sincospif;

// glibc's <math.h> declares the fast-math names with C linkage and defines none of them: define
// them here to match, so a host build links.
extern "C" {
inline float __expf(float x) noexcept { return std::exp(x); }
inline float __exp10f(float x) noexcept { return std::pow(10.0f, x); }
inline float __logf(float x) noexcept { return std::log(x); }
inline float __log2f(float x) noexcept { return std::log2(x); }
inline float __log10f(float x) noexcept { return std::log10(x); }
inline float __sinf(float x) noexcept { return std::sin(x); }
inline float __cosf(float x) noexcept { return std::cos(x); }
inline float __tanf(float x) noexcept { return std::tan(x); }
inline float __powf(float x, float y) noexcept { return std::pow(x, y); }
inline void __sincosf(float x, float* s, float* c) noexcept {
  *s = std::sin(x);
  *c = std::cos(x);
}
}

#endif  // !defined(__CUDACC__)
