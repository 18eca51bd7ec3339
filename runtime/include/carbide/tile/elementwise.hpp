// Elementwise operations on register tiles (ctd::frag), for any layout: each thread applies the
// operation to the elements it holds, so nothing moves between threads. Operands are two
// fragments of the same element type, shape and layout, or a fragment and a scalar on either side
// (the scalar uniform over the block). 16-bit floats compute in f32 and round once per operation.
#pragma once

#include <carbide/tile/block.hpp>

#include <cmath>
#include <type_traits>

namespace carbide::tile::detail {

// The scalars that combine with a fragment: arithmetic types and the 16-bit floats.
template <class V>
inline constexpr bool is_scalar_v = std::is_arithmetic_v<V> || is_float16_v<V>;

// Element i of an operand, in the compute type C: a fragment's element, or the scalar itself.
template <class C, class T, class Shape, class Layout>
CARBIDE_TILE_HD C operand(const frag<T, Shape, Layout>& f, int i) {
  return convert<C>(f.v[i]);
}
template <class C, class V, std::enable_if_t<is_scalar_v<V>, int> = 0>
CARBIDE_TILE_HD C operand(V scalar, int) {
  return convert<C>(scalar);
}

// The fragment type among the operands (the first one), which fixes shape, layout and element type.
template <class... X>
struct first_frag {
  using type = void;  // no fragment among them: not an elementwise operation
};
template <class T, class Shape, class Layout, class... Rest>
struct first_frag<frag<T, Shape, Layout>, Rest...> {
  using type = frag<T, Shape, Layout>;
};
template <class X, class... Rest>
struct first_frag<X, Rest...> : first_frag<Rest...> {};

// Operands valid together: at least one fragment, every fragment the same type, the rest scalars.
template <class... X>
inline constexpr bool elementwise_operands_v =
    (is_frag_v<X> || ...) && ((is_scalar_v<X> || std::is_same_v<X, typename first_frag<X...>::type>) && ...);

template <class Result, class... X>
using frag_like_t = frag<Result, typename first_frag<X...>::type::shape_type, typename first_frag<X...>::type::layout_type>;

// Applies `op` element by element in the compute type of the fragments' element type; Result
// void means the fragments' element type (arithmetic), otherwise Result (bool for comparisons).
template <class Result, class Op, class... X>
CARBIDE_TILE_HD auto map(Op op, const X&... x) {
  using T = typename first_frag<X...>::type::value_type;
  using C = compute_t<T>;
  using R = std::conditional_t<std::is_void_v<Result>, T, Result>;
  frag_like_t<R, X...> r;
CARBIDE_TILE_UNROLL
  for (int i = 0; i < r.kCount; ++i) r.v[i] = convert<R>(op(operand<C>(x, i)...));
  return r;
}

// Operators. The functors carry the operation; `map` carries the layout-generic loop.
#define CARBIDE_TILE_BINARY_OPERATOR(OP, RESULT)                                                  \
  template <class A, class B, std::enable_if_t<elementwise_operands_v<A, B>, int> = 0>           \
  CARBIDE_TILE_HD auto operator OP(const A& a, const B& b) {                                      \
    return map<RESULT>([](auto x, auto y) { return x OP y; }, a, b);                              \
  }
CARBIDE_TILE_BINARY_OPERATOR(+, void)
CARBIDE_TILE_BINARY_OPERATOR(-, void)
CARBIDE_TILE_BINARY_OPERATOR(*, void)
CARBIDE_TILE_BINARY_OPERATOR(/, void)
CARBIDE_TILE_BINARY_OPERATOR(<, bool)
CARBIDE_TILE_BINARY_OPERATOR(<=, bool)
CARBIDE_TILE_BINARY_OPERATOR(>, bool)
CARBIDE_TILE_BINARY_OPERATOR(>=, bool)
CARBIDE_TILE_BINARY_OPERATOR(==, bool)
CARBIDE_TILE_BINARY_OPERATOR(!=, bool)
CARBIDE_TILE_BINARY_OPERATOR(&&, bool)
CARBIDE_TILE_BINARY_OPERATOR(||, bool)
#undef CARBIDE_TILE_BINARY_OPERATOR

template <class Shape, class Layout>
CARBIDE_TILE_HD frag<bool, Shape, Layout> operator!(const frag<bool, Shape, Layout>& a) {
  return map<bool>([](auto x) { return !x; }, a);
}

template <class T, class Shape, class Layout>
CARBIDE_TILE_HD frag<T, Shape, Layout> operator-(const frag<T, Shape, Layout>& a) {
  return map<void>([](auto x) { return -x; }, a);
}

// cond ? a : b per element; a and b fragments or scalars, at least one a fragment.
template <class Shape, class Layout, class A, class B, std::enable_if_t<elementwise_operands_v<A, B>, int> = 0>
CARBIDE_TILE_HD auto select(const frag<bool, Shape, Layout>& cond, const A& a, const B& b) {
  using T = typename first_frag<A, B>::type::value_type;
  static_assert(std::is_same_v<typename first_frag<A, B>::type, frag<T, Shape, Layout>>, "select: one shape and layout");
  frag<T, Shape, Layout> r;
CARBIDE_TILE_UNROLL
  for (int i = 0; i < r.kCount; ++i) r.v[i] = cond.v[i] ? convert<T>(operand<T>(a, i)) : convert<T>(operand<T>(b, i));
  return r;
}

// Element type U, each element converted (rounded to nearest even into a 16-bit float).
template <class U, class T, class Shape, class Layout>
CARBIDE_TILE_HD frag<U, Shape, Layout> cast(const frag<T, Shape, Layout>& a) {
  frag<U, Shape, Layout> r;
CARBIDE_TILE_UNROLL
  for (int i = 0; i < r.kCount; ++i) r.v[i] = convert<U>(a.v[i]);
  return r;
}

#if defined(__CUDACC__)

// The math functions of the compute type: the float forms for f32 (and 16-bit floats), the
// double forms for f64.
namespace math {
CARBIDE_TILE_DEVICE float exp(float x) { return ::expf(x); }
CARBIDE_TILE_DEVICE double exp(double x) { return ::exp(x); }
CARBIDE_TILE_DEVICE float exp2(float x) { return ::exp2f(x); }
CARBIDE_TILE_DEVICE double exp2(double x) { return ::exp2(x); }
CARBIDE_TILE_DEVICE float log(float x) { return ::logf(x); }
CARBIDE_TILE_DEVICE double log(double x) { return ::log(x); }
CARBIDE_TILE_DEVICE float sqrt(float x) { return ::sqrtf(x); }
CARBIDE_TILE_DEVICE double sqrt(double x) { return ::sqrt(x); }
CARBIDE_TILE_DEVICE float rsqrt(float x) { return ::rsqrtf(x); }
CARBIDE_TILE_DEVICE double rsqrt(double x) { return ::rsqrt(x); }
CARBIDE_TILE_DEVICE float tanh(float x) { return ::tanhf(x); }
CARBIDE_TILE_DEVICE double tanh(double x) { return ::tanh(x); }
CARBIDE_TILE_DEVICE float abs(float x) { return ::fabsf(x); }
CARBIDE_TILE_DEVICE double abs(double x) { return ::fabs(x); }
template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
CARBIDE_TILE_DEVICE I abs(I x) {
  return x < 0 ? -x : x;
}
CARBIDE_TILE_DEVICE float max(float x, float y) { return ::fmaxf(x, y); }
CARBIDE_TILE_DEVICE double max(double x, double y) { return ::fmax(x, y); }
template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
CARBIDE_TILE_DEVICE I max(I x, I y) {
  return x < y ? y : x;
}
CARBIDE_TILE_DEVICE float min(float x, float y) { return ::fminf(x, y); }
CARBIDE_TILE_DEVICE double min(double x, double y) { return ::fmin(x, y); }
template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
CARBIDE_TILE_DEVICE I min(I x, I y) {
  return y < x ? y : x;
}
CARBIDE_TILE_DEVICE float fma(float x, float y, float z) { return ::fmaf(x, y, z); }
CARBIDE_TILE_DEVICE double fma(double x, double y, double z) { return ::fma(x, y, z); }
}  // namespace math

#define CARBIDE_TILE_UNARY_FUNCTION(NAME)                                    \
  template <class T, class Shape, class Layout>                             \
  CARBIDE_TILE_DEVICE frag<T, Shape, Layout> NAME(const frag<T, Shape, Layout>& a) { \
    return map<void>([](auto x) { return math::NAME(x); }, a);              \
  }
CARBIDE_TILE_UNARY_FUNCTION(exp)
CARBIDE_TILE_UNARY_FUNCTION(exp2)
CARBIDE_TILE_UNARY_FUNCTION(log)
CARBIDE_TILE_UNARY_FUNCTION(sqrt)
CARBIDE_TILE_UNARY_FUNCTION(rsqrt)
CARBIDE_TILE_UNARY_FUNCTION(tanh)
CARBIDE_TILE_UNARY_FUNCTION(abs)
#undef CARBIDE_TILE_UNARY_FUNCTION

template <class A, class B, std::enable_if_t<elementwise_operands_v<A, B>, int> = 0>
CARBIDE_TILE_DEVICE auto max(const A& a, const B& b) {
  return map<void>([](auto x, auto y) { return math::max(x, y); }, a, b);
}
template <class A, class B, std::enable_if_t<elementwise_operands_v<A, B>, int> = 0>
CARBIDE_TILE_DEVICE auto min(const A& a, const B& b) {
  return map<void>([](auto x, auto y) { return math::min(x, y); }, a, b);
}
// a · b + c, rounded once (also for f32: one fma instruction).
template <class A, class B, class C, std::enable_if_t<elementwise_operands_v<A, B, C>, int> = 0>
CARBIDE_TILE_DEVICE auto fma(const A& a, const B& b, const C& c) {
  return map<void>([](auto x, auto y, auto z) { return math::fma(x, y, z); }, a, b, c);
}

#endif  // __CUDACC__

}  // namespace carbide::tile::detail
