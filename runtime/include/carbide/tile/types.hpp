// The Tile path's 16-bit floating-point element types, ct::bf16 and ct::f16 (ct = carbide::tile).
//
// Both are two bytes with the bit layout of __nv_bfloat16 / __half, so device buffers of either
// can be handed to cuBLAS, to cp.async and to ldmatrix as they are. They are plain values on the
// host as well (a g++ build of a tile kernel, the CPU reference, the host's Tensor<bf16>):
// explicitly constructible from float with round-to-nearest-even, implicitly convertible to float.
//
// Conversions: device code uses cuda_bf16.h / cuda_fp16.h (one cvt instruction); host code, under
// g++ and under nvcc's host pass alike, uses the bit arithmetic below, so a host result does not
// depend on the compiler. bench/experiments/tile_types_check.cu checks the host code against the
// CUDA headers' conversions over every float and every 16-bit pattern.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#define CARBIDE_TILE_HD __host__ __device__ __forceinline__
#define CARBIDE_TILE_DEVICE __device__ __forceinline__
// Layout maps: constexpr index arithmetic that the host (planner, tests) and the kernels share.
#define CARBIDE_TILE_CONSTEXPR __host__ __device__ constexpr
#else
#define CARBIDE_TILE_HD inline
#define CARBIDE_TILE_CONSTEXPR constexpr
#endif

namespace carbide::tile {

namespace detail {

inline std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// bf16 is the top half of a float: round the low 16 bits away, ties to the even result. Every NaN
// becomes the canonical NaN 0x7fff, as cuda_bf16.h's conversion gives (truncating a NaN's payload
// could otherwise turn it into an infinity).
inline std::uint16_t float_to_bf16_bits(float f) {
  std::uint32_t u = float_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fffu;
  u += 0x7fffu + ((u >> 16) & 1u);  // carries into the exponent (up to infinity) are correct rounding
  return std::uint16_t(u >> 16);
}
inline float bf16_bits_to_float(std::uint16_t b) { return bits_float(std::uint32_t(b) << 16); }

// IEEE binary16: 5 exponent bits (bias 15), 10 mantissa bits, subnormals below 2^-14. NaN: the
// canonical 0x7fff, as cuda_fp16.h's conversion gives.
inline std::uint16_t float_to_f16_bits(float f) {
  std::uint32_t x = float_bits(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  x &= 0x7fffffffu;
  if (x > 0x7f800000u) return 0x7fffu;
  if (x >= 0x477ff000u) return std::uint16_t(sign | 0x7c00u);  // >= 65520 (max + half an ulp): infinity
  if (x >= 0x38800000u) {                                     // normal (>= 2^-14): rebias 127 -> 15
    std::uint32_t h = (x - 0x38000000u) >> 13;
    const std::uint32_t rest = x & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry into the exponent is right
    return std::uint16_t(sign | h);
  }
  if (x <= 0x33000000u) return std::uint16_t(sign);  // <= 2^-25: rounds to zero (2^-25 ties to even 0)
  // Subnormal: count units of 2^-24. The float is m * 2^(e - 150) with the implicit bit in m.
  const std::uint32_t e = x >> 23, m = (x & 0x7fffffu) | 0x800000u;
  const std::uint32_t shift = 126u - e;  // 14..23
  std::uint32_t h = m >> shift;
  const std::uint32_t rest = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
  if (rest > half || (rest == half && (h & 1u))) ++h;  // may become 0x400, the smallest normal
  return std::uint16_t(sign | h);
}
inline float f16_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0x1fu) return bits_float(sign | 0x7f800000u | (m << 13));  // infinity, NaN
  if (e != 0) return bits_float(sign | ((e + 112u) << 23) | (m << 13));
  const float magnitude = float(m) * 5.9604644775390625e-8f;  // m * 2^-24, exact
  return sign ? -magnitude : magnitude;
}

}  // namespace detail

// Brain float: 1 sign, 8 exponent, 7 mantissa bits. Trivially copyable and standard-layout, so an
// array of bf16 is an array of __nv_bfloat16 (static_asserts below).
class alignas(2) bf16 {
 public:
  bf16() = default;
  CARBIDE_TILE_HD explicit bf16(float f) {
#if defined(__CUDA_ARCH__)
    bits_ = __bfloat16_as_ushort(__float2bfloat16_rn(f));
#else
    bits_ = detail::float_to_bf16_bits(f);
#endif
  }
  CARBIDE_TILE_HD operator float() const {
#if defined(__CUDA_ARCH__)
    return __bfloat162float(__ushort_as_bfloat16(bits_));
#else
    return detail::bf16_bits_to_float(bits_);
#endif
  }
  CARBIDE_TILE_HD static bf16 from_bits(std::uint16_t bits) {
    bf16 v;
    v.bits_ = bits;
    return v;
  }
  CARBIDE_TILE_HD std::uint16_t bits() const { return bits_; }
#if defined(__CUDACC__)
  // Explicit both ways: implicit ones would make `x + y` ambiguous between float's + and
  // cuda_bf16.h's operators on __nv_bfloat16.
  CARBIDE_TILE_HD explicit bf16(__nv_bfloat16 v) : bits_(__bfloat16_as_ushort(v)) {}
  CARBIDE_TILE_HD explicit operator __nv_bfloat16() const { return __ushort_as_bfloat16(bits_); }
#endif

 private:
  std::uint16_t bits_;
};

// IEEE half: 1 sign, 5 exponent, 10 mantissa bits; an array of f16 is an array of __half.
class alignas(2) f16 {
 public:
  f16() = default;
  CARBIDE_TILE_HD explicit f16(float f) {
#if defined(__CUDA_ARCH__)
    bits_ = __half_as_ushort(__float2half_rn(f));
#else
    bits_ = detail::float_to_f16_bits(f);
#endif
  }
  CARBIDE_TILE_HD operator float() const {
#if defined(__CUDA_ARCH__)
    return __half2float(__ushort_as_half(bits_));
#else
    return detail::f16_bits_to_float(bits_);
#endif
  }
  CARBIDE_TILE_HD static f16 from_bits(std::uint16_t bits) {
    f16 v;
    v.bits_ = bits;
    return v;
  }
  CARBIDE_TILE_HD std::uint16_t bits() const { return bits_; }
#if defined(__CUDACC__)
  CARBIDE_TILE_HD explicit f16(__half v) : bits_(__half_as_ushort(v)) {}
  CARBIDE_TILE_HD explicit operator __half() const { return __ushort_as_half(bits_); }
#endif

 private:
  std::uint16_t bits_;
};

static_assert(sizeof(bf16) == 2 && alignof(bf16) == 2 && sizeof(f16) == 2 && alignof(f16) == 2);
static_assert(std::is_trivially_copyable_v<bf16> && std::is_standard_layout_v<bf16>);
static_assert(std::is_trivially_copyable_v<f16> && std::is_standard_layout_v<f16>);
#if defined(__CUDACC__)
static_assert(sizeof(bf16) == sizeof(__nv_bfloat16) && alignof(bf16) == alignof(__nv_bfloat16));
static_assert(sizeof(f16) == sizeof(__half) && alignof(f16) == alignof(__half));
#endif

// Element types the 16-bit tensor-core instructions take.
template <class T>
inline constexpr bool is_mma16_v = std::is_same_v<T, bf16> || std::is_same_v<T, f16>;

// Two floats rounded to T and packed into one 32-bit register, `lo` in the low half: the element
// order of an mma fragment register and of memory (little-endian), so one 4-byte store writes both.
template <class T>
CARBIDE_TILE_HD std::uint32_t pack2(float lo, float hi) {
  static_assert(is_mma16_v<T>, "bf16 or f16");
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, bf16>) {
    const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);  // one cvt.rn.bf16x2.f32
    return *reinterpret_cast<const std::uint32_t*>(&v);
  } else {
    const __half2 v = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<const std::uint32_t*>(&v);
  }
#else
  return std::uint32_t(T(lo).bits()) | (std::uint32_t(T(hi).bits()) << 16);
#endif
}

}  // namespace carbide::tile
