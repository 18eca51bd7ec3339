// The Tile path's source language (DESIGN §10), namespace carbide::tile (`ct`): what a
// CARBIDE_TILE_KERNEL says one tile block does with whole tiles.
//
// This header is what host compilers, clangd and the translator read. Every op is a plain
// template with a scalar implementation (the reference semantics; §11 runs tile blocks on the CPU
// with it), and its return type carries the result's static shape, which is what the translator's
// tile model reads. The device code is not this header: the translator lowers each tile kernel
// to CUDA (docs/tile-lowering.md) over the device library in carbide/tile/.
//
// Shapes: an elementwise op's operands, a store's tile and its `out`, an `mma`'s k extents must
// agree. The ops accept any shapes so that the translator can report a mismatch as
// carbide-tile-shape, naming both shapes; other compilers stop at a static_assert instead.
#pragma once

#include <carbide/annotations.hpp>
#include <carbide/tile/shape.hpp>
#include <carbide/tile/types.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <tuple>
#include <utility>
#include <type_traits>

namespace carbide::tile {

namespace detail {
#if defined(__clang__)
inline constexpr bool kShapesCheckedByTranslator = true;
#else
inline constexpr bool kShapesCheckedByTranslator = false;
#endif
template <class A, class B>
inline constexpr bool same_shape_v = std::is_same_v<A, B> || kShapesCheckedByTranslator;

// 16-bit floats compute in float and round once per op.
template <class T>
using compute_t = std::conditional_t<is_mma16_v<T>, float, T>;
template <class T, class V>
T to(V value) {
  return T(static_cast<compute_t<T>>(value));
}

// Row-major offset of a multi-index within a shape.
template <class S, std::size_t N>
std::int64_t offset(const std::array<std::int64_t, N>& index) {
  std::int64_t at = 0;
  for (std::size_t axis = 0; axis < N; ++axis) at = at * S::extent(int(axis)) + index[axis];
  return at;
}
// The offset in a row-major tensor of `extent` of element `i` of the tile of shape S at
// `tile_index`; nullopt when it lies outside the tensor (an edge tile).
template <class S, std::size_t R, class Index>
std::optional<std::int64_t> element_offset(const Index& tile_index, const std::array<std::int64_t, R>& extent,
                                           std::int64_t i);

template <class S>
std::array<std::int64_t, S::rank> unravel(std::int64_t at) {
  std::array<std::int64_t, S::rank> index{};
  for (int axis = S::rank - 1; axis >= 0; --axis) {
    index[std::size_t(axis)] = at % S::extent(axis);
    at /= S::extent(axis);
  }
  return index;
}
template <class S, std::size_t R, class Index>
std::optional<std::int64_t> element_offset(const Index& tile_index, const std::array<std::int64_t, R>& extent,
                                           std::int64_t i) {
  const auto within = unravel<S>(i);
  std::int64_t at = 0;
  for (std::size_t axis = 0; axis < R; ++axis) {
    const std::int64_t x = std::int64_t(tile_index[axis]) * S::extent(int(axis)) + within[axis];
    if (x >= extent[axis]) return std::nullopt;
    at = at * extent[axis] + x;
  }
  return at;
}
}  // namespace detail

// A tile value: a static shape of T, held by the whole tile block.
template <class T, class S>
class tile {
  static_assert(is_shape_v<S>, "the second argument of ct::tile is a ct::shape<...>");

 public:
  using element_type = T;
  using shape_type = S;
  static constexpr int rank = S::rank;
  T& operator[](std::int64_t i) { return v_[std::size_t(i)]; }
  const T& operator[](std::int64_t i) const { return v_[std::size_t(i)]; }

 private:
  std::array<T, std::size_t(S::size)> v_{};
};

// Padding for the part of a load outside the tensor: `ct::pad(-INFINITY)`.
template <class V>
struct padding {
  V value;
};
template <class V>
padding<V> pad(V value) {
  return {value};
}
namespace detail {
template <class X>
inline constexpr bool is_padding_v = false;
template <class V>
inline constexpr bool is_padding_v<padding<V>> = true;
}  // namespace detail

template <class T, class S>
class out;

// A read-only partition of an input into tiles of shape S (`a.partition(ct::shape<BM, BK>{})`).
template <class T, int Rank, class S>
class in_partition {
 public:
  in_partition(const T* data, const std::array<std::int64_t, Rank>& extent) : data_(data), extent_(extent) {}
  // The tile at tile coordinates `index...`; elements outside the tensor read as zero, or as the
  // value of a last argument `ct::pad(v)`: `pk.load(j, 0, ct::pad(-INFINITY))`.
  template <class... A>
  tile<T, S> load(A... arguments) const {
    constexpr std::size_t n = sizeof...(A);
    const std::tuple<A...> all(arguments...);
    if constexpr (n > 0 && detail::is_padding_v<std::tuple_element_t<n - 1, std::tuple<A...>>>)
      return load_indexed(all, std::make_index_sequence<n - 1>{}, detail::to<T>(std::get<n - 1>(all).value));
    else
      return load_indexed(all, std::make_index_sequence<n>{}, T{});
  }
  // The number of tiles along `axis`, edge tiles included.
  int tiles(int axis) const { return int((extent_[std::size_t(axis)] + S::extent(axis) - 1) / S::extent(axis)); }

  tile<T, S> load_at(const std::array<std::int64_t, Rank>& tile_index, T fill) const {
    tile<T, S> t;
    for (std::int64_t i = 0; i < S::size; ++i) {
      const auto at = detail::element_offset<S>(tile_index, extent_, i);
      t[i] = at ? data_[*at] : fill;
    }
    return t;
  }

 private:
  template <class Tuple, std::size_t... I>
  tile<T, S> load_indexed(const Tuple& all, std::index_sequence<I...>, T fill) const {
    static_assert(sizeof...(I) == Rank || detail::kShapesCheckedByTranslator, "one tile coordinate per axis of the input");
    std::array<std::int64_t, Rank> index{};
    std::size_t axis = 0;
    ((axis < std::size_t(Rank) ? void(index[axis++] = std::int64_t(std::get<I>(all))) : void()), ...);
    return load_at(index, fill);
  }

  const T* data_;
  std::array<std::int64_t, Rank> extent_;
};

// An input tensor: read-only, run-time extents, row-major.
template <class T, int Rank>
class in {
 public:
  in(const T* data, const std::array<std::int64_t, Rank>& extent) : data_(data), extent_(extent) {}
  std::int64_t extent(int axis) const { return extent_[std::size_t(axis)]; }
  template <int... E>
  in_partition<T, Rank, shape<E...>> partition(shape<E...>) const {
    static_assert(sizeof...(E) == Rank || detail::kShapesCheckedByTranslator,
                  "a partition's shape has the input's rank");
    return {data_, extent_};
  }

 private:
  const T* data_;
  std::array<std::int64_t, Rank> extent_;
};

// This tile block's own region of an output: the only writable view in a tile kernel. Made by the
// generated launch from a Partition; not copied, stored or returned (carbide-witness-escape).
template <class T, class S>
class out {
 public:
  static constexpr int kRank = S::rank;
  out(T* data, const std::array<std::int64_t, kRank>& extent, const std::array<int, kRank>& coord)
      : data_(data), extent_(extent), coord_(coord) {}
  out(const out&) = delete;
  out& operator=(const out&) = delete;
  out(out&&) = default;

  // This block's tile coordinates, plain uniform integers: `auto [bm, bn] = c.coord();`.
  std::array<int, kRank> coord() const { return coord_; }
  // Writes the elements of `t` that lie inside the tensor.
  template <class S2>
  void store(const tile<T, S2>& t) {
    static_assert(detail::same_shape_v<S, S2>, "a stored tile has its out's shape");
    for (std::int64_t i = 0; i < S::size; ++i)
      if (const auto at = detail::element_offset<S>(coord_, extent_, i)) data_[*at] = t[i];
  }

 private:
  T* data_;
  std::array<std::int64_t, kRank> extent_;
  std::array<int, kRank> coord_;
};

// The input `x` read at `y`'s tile coordinates with `y`'s shape.
template <class U, int Rank, class T, class S, class V>
tile<U, S> load_like(const in<U, Rank>& x, const out<T, S>& y, padding<V> fill) {
  static_assert(Rank == S::rank || detail::kShapesCheckedByTranslator, "load_like needs inputs of the out's rank");
  std::array<std::int64_t, Rank> index{};
  const auto coord = y.coord();
  for (int axis = 0; axis < Rank && axis < S::rank; ++axis) index[std::size_t(axis)] = coord[std::size_t(axis)];
  return x.partition(S{}).load_at(index, detail::to<U>(fill.value));
}
template <class U, int Rank, class T, class S>
tile<U, S> load_like(const in<U, Rank>& x, const out<T, S>& y) {
  return load_like(x, y, pad(0));
}

// Tile factories. `full` converts its value to T (rounded to nearest even for bf16 and f16).
template <class T, class S, class V>
tile<T, S> full(V value) {
  tile<T, S> t;
  const T v = detail::to<T>(value);
  for (std::int64_t i = 0; i < S::size; ++i) t[i] = v;
  return t;
}
template <class T, class S>
tile<T, S> zeros() {
  return full<T, S>(0);
}
// Each element's index along axis `Axis` (`ct::iota<int, ct::shape<BM, BN>, 1>()`: its column),
// or, without an axis, its row-major linear index within the tile.
template <class T, class S, int Axis = -1>
tile<T, S> iota() {
  static_assert(Axis >= -1 && Axis < S::rank, "iota's axis is one of the tile's axes");
  tile<T, S> t;
  for (std::int64_t i = 0; i < S::size; ++i)
    t[i] = detail::to<T>(Axis < 0 ? i : detail::unravel<S>(i)[std::size_t(Axis < 0 ? 0 : Axis)]);
  return t;
}

namespace detail {
template <class R, class T, class S, class F>
tile<R, S> map(const tile<T, S>& a, F f) {
  tile<R, S> r;
  for (std::int64_t i = 0; i < S::size; ++i) r[i] = f(a[i]);
  return r;
}
template <class R, class T, class S, class S2, class F>
tile<R, S> zip(const tile<T, S>& a, const tile<T, S2>& b, F f) {
  static_assert(same_shape_v<S, S2>, "an elementwise op's operands have one shape");
  tile<R, S> r;
  for (std::int64_t i = 0; i < S::size; ++i) r[i] = f(a[i], b[std::min(i, S2::size - 1)]);
  return r;
}
template <class V>
inline constexpr bool is_scalar_v = std::is_arithmetic_v<V> || is_mma16_v<V>;
}  // namespace detail

#define CARBIDE_TILE_BINARY(OP, RESULT)                                                            \
  template <class T, class S, class S2>                                                           \
  tile<RESULT, S> operator OP(const tile<T, S>& a, const tile<T, S2>& b) {                        \
    return detail::zip<RESULT>(a, b, [](T x, T y) {                                               \
      return RESULT(detail::compute_t<T>(x) OP detail::compute_t<T>(y));                          \
    });                                                                                           \
  }                                                                                               \
  template <class T, class S, class V, std::enable_if_t<detail::is_scalar_v<V>, int> = 0>        \
  tile<RESULT, S> operator OP(const tile<T, S>& a, V b) {                                         \
    return detail::map<RESULT>(a, [b](T x) {                                                      \
      return RESULT(detail::compute_t<T>(x) OP detail::compute_t<T>(b));                          \
    });                                                                                           \
  }                                                                                               \
  template <class T, class S, class V, std::enable_if_t<detail::is_scalar_v<V>, int> = 0>        \
  tile<RESULT, S> operator OP(V a, const tile<T, S>& b) {                                         \
    return detail::map<RESULT>(b, [a](T y) {                                                      \
      return RESULT(detail::compute_t<T>(a) OP detail::compute_t<T>(y));                          \
    });                                                                                           \
  }
CARBIDE_TILE_BINARY(+, T)
CARBIDE_TILE_BINARY(-, T)
CARBIDE_TILE_BINARY(*, T)
CARBIDE_TILE_BINARY(/, T)
CARBIDE_TILE_BINARY(<, bool)
CARBIDE_TILE_BINARY(<=, bool)
CARBIDE_TILE_BINARY(>, bool)
CARBIDE_TILE_BINARY(>=, bool)
CARBIDE_TILE_BINARY(==, bool)
CARBIDE_TILE_BINARY(!=, bool)
#undef CARBIDE_TILE_BINARY

template <class T, class S>
tile<T, S> operator-(const tile<T, S>& a) {
  return detail::map<T>(a, [](T x) { return detail::to<T>(-detail::compute_t<T>(x)); });
}

#define CARBIDE_TILE_UNARY(NAME, EXPR)                                                  \
  template <class T, class S>                                                           \
  tile<T, S> NAME(const tile<T, S>& a) {                                                \
    return detail::map<T>(a, [](T value) {                                              \
      const auto x = detail::compute_t<T>(value);                                       \
      return detail::to<T>(EXPR);                                                       \
    });                                                                                 \
  }
CARBIDE_TILE_UNARY(exp, std::exp(x))
CARBIDE_TILE_UNARY(exp2, std::exp2(x))
CARBIDE_TILE_UNARY(log, std::log(x))
CARBIDE_TILE_UNARY(sqrt, std::sqrt(x))
CARBIDE_TILE_UNARY(rsqrt, 1 / std::sqrt(x))
CARBIDE_TILE_UNARY(tanh, std::tanh(x))
CARBIDE_TILE_UNARY(abs, std::abs(x))
#undef CARBIDE_TILE_UNARY

namespace detail {
// An operand of max, min, fma or select: a tile, or a scalar that stands for every element.
template <class X>
inline constexpr bool is_tile_v = false;
template <class T, class S>
inline constexpr bool is_tile_v<tile<T, S>> = true;
template <class X>
inline constexpr bool is_operand_v = is_tile_v<X> || is_scalar_v<X>;
template <class T, class S>
const T& element(const tile<T, S>& x, std::int64_t i) {
  return x[std::min(i, S::size - 1)];
}
template <class V, std::enable_if_t<is_scalar_v<V>, int> = 0>
V element(V x, std::int64_t) {
  return x;
}
// The first tile among the operands: it gives the result's element type and shape.
template <class... X>
struct first_tile {
  using type = void;
};
template <class T, class S, class... Rest>
struct first_tile<tile<T, S>, Rest...> {
  using type = tile<T, S>;
};
template <class X, class... Rest>
struct first_tile<X, Rest...> : first_tile<Rest...> {};
template <class... X>
using first_tile_t = typename first_tile<X...>::type;
// Operands of one shape: every tile among them has the first tile's shape.
template <class First, class X>
constexpr bool shape_fits() {
  if constexpr (is_tile_v<X>) return same_shape_v<typename First::shape_type, typename X::shape_type>;
  else return true;
}
template <class First, class... X>
inline constexpr bool one_shape_v = (shape_fits<First, X>() && ...);
template <class... X>
inline constexpr bool elementwise_v = (is_operand_v<X> && ...) && !std::is_void_v<first_tile_t<X...>>;
}  // namespace detail

// max and min of two tiles, or of a tile and a scalar on either side (`ct::max(v, 0.0f)`);
// floating point as fmax / fmin: a NaN operand gives the other one.
namespace detail {
// The larger (Larger) or the smaller of each pair of elements.
template <bool Larger, class A, class B>
first_tile_t<A, B> extremum(const A& a, const B& b) {
  using R = first_tile_t<A, B>;
  using T = typename R::element_type;
  R r;
  for (std::int64_t i = 0; i < R::shape_type::size; ++i) {
    const auto x = compute_t<T>(element(a, i)), y = compute_t<T>(element(b, i));
    if constexpr (std::is_floating_point_v<compute_t<T>>) r[i] = to<T>(Larger ? std::fmax(x, y) : std::fmin(x, y));
    else r[i] = (Larger ? x < y : y < x) ? y : x;
  }
  return r;
}
}  // namespace detail

template <class A, class B, std::enable_if_t<detail::elementwise_v<A, B>, int> = 0>
detail::first_tile_t<A, B> max(const A& a, const B& b) {
  static_assert(detail::one_shape_v<detail::first_tile_t<A, B>, A, B>, "max's operands have one shape");
  return detail::extremum<true>(a, b);
}
template <class A, class B, std::enable_if_t<detail::elementwise_v<A, B>, int> = 0>
detail::first_tile_t<A, B> min(const A& a, const B& b) {
  static_assert(detail::one_shape_v<detail::first_tile_t<A, B>, A, B>, "min's operands have one shape");
  return detail::extremum<false>(a, b);
}
// a · b + c rounded once; any operand may be a scalar.
template <class A, class B, class C, std::enable_if_t<detail::elementwise_v<A, B, C>, int> = 0>
detail::first_tile_t<A, B, C> fma(const A& a, const B& b, const C& c) {
  using R = detail::first_tile_t<A, B, C>;
  using T = typename R::element_type;
  using F = detail::compute_t<T>;
  static_assert(detail::one_shape_v<R, A, B, C>, "fma's operands have one shape");
  R r;
  for (std::int64_t i = 0; i < R::shape_type::size; ++i)
    r[i] = detail::to<T>(std::fma(F(detail::element(a, i)), F(detail::element(b, i)), F(detail::element(c, i))));
  return r;
}
// condition ? a : b per element; a or b may be a scalar (`ct::select(inside, s, -INFINITY)`).
template <class S, class A, class B, std::enable_if_t<detail::elementwise_v<A, B>, int> = 0>
tile<typename detail::first_tile_t<A, B>::element_type, S> select(const tile<bool, S>& condition, const A& a,
                                                                   const B& b) {
  using T = typename detail::first_tile_t<A, B>::element_type;
  static_assert(detail::one_shape_v<tile<bool, S>, A, B>, "select's operands have one shape");
  tile<T, S> r;
  for (std::int64_t i = 0; i < S::size; ++i)
    r[i] = condition[i] ? detail::to<T>(detail::compute_t<T>(detail::element(a, i)))
                        : detail::to<T>(detail::compute_t<T>(detail::element(b, i)));
  return r;
}
// Masks combine: `ct::select(inside && causal, s, -INFINITY)`.
template <class S, class S2>
tile<bool, S> operator&&(const tile<bool, S>& a, const tile<bool, S2>& b) {
  return detail::zip<bool>(a, b, [](bool x, bool y) { return x && y; });
}
template <class S, class S2>
tile<bool, S> operator||(const tile<bool, S>& a, const tile<bool, S2>& b) {
  return detail::zip<bool>(a, b, [](bool x, bool y) { return x || y; });
}
template <class S>
tile<bool, S> operator!(const tile<bool, S>& a) {
  return detail::map<bool>(a, [](bool x) { return !x; });
}
template <class U, class T, class S>
tile<U, S> cast(const tile<T, S>& a) {
  return detail::map<U>(a, [](T x) { return detail::to<U>(detail::compute_t<T>(x)); });
}

// Reductions remove the axis: shape<BM, BN> → shape<BM> for Axis = 1.
namespace detail {
template <int Axis, class T, class S, class F>
tile<T, remove_axis_t<Axis, S>> reduce(const tile<T, S>& a, compute_t<T> init, F f) {
  static_assert((Axis >= 0 && Axis < S::rank) || kShapesCheckedByTranslator, "the reduced axis is one of the tile's axes");
  using R = remove_axis_t<Axis, S>;
  std::array<compute_t<T>, std::size_t(R::size)> acc;
  acc.fill(init);
  for (std::int64_t i = 0; i < S::size; ++i) {
    auto index = unravel<S>(i);
    std::array<std::int64_t, std::size_t(R::rank)> kept{};
    for (int axis = 0, k = 0; axis < S::rank; ++axis)
      if (axis != Axis) kept[std::size_t(k++)] = index[std::size_t(axis)];
    auto& slot = acc[std::size_t(offset<R>(kept))];
    slot = f(slot, compute_t<T>(a[i]));
  }
  tile<T, R> r;
  for (std::int64_t i = 0; i < R::size; ++i) r[i] = to<T>(acc[std::size_t(i)]);
  return r;
}
}  // namespace detail
template <int Axis, class T, class S>
tile<T, remove_axis_t<Axis, S>> reduce_sum(const tile<T, S>& a) {
  return detail::reduce<Axis>(a, 0, [](auto x, auto y) { return x + y; });
}
namespace detail {
// Where max and min start: the infinities where the type has them, else its extremes (an
// integer's infinity() is 0), as the device's reductions start (tile/block_reduce.hpp).
template <class C>
constexpr C below_all() {
  return std::numeric_limits<C>::has_infinity ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::lowest();
}
template <class C>
constexpr C above_all() {
  return std::numeric_limits<C>::has_infinity ? std::numeric_limits<C>::infinity() : std::numeric_limits<C>::max();
}
}  // namespace detail
template <int Axis, class T, class S>
tile<T, remove_axis_t<Axis, S>> reduce_max(const tile<T, S>& a) {
  return detail::reduce<Axis>(a, detail::below_all<detail::compute_t<T>>(), [](auto x, auto y) { return x < y ? y : x; });
}
template <int Axis, class T, class S>
tile<T, remove_axis_t<Axis, S>> reduce_min(const tile<T, S>& a) {
  return detail::reduce<Axis>(a, detail::above_all<detail::compute_t<T>>(), [](auto x, auto y) { return y < x ? y : x; });
}

// The index along `Axis` of each line's largest (argmax) or smallest (argmin) element: shape<BM, BN>
// → shape<BM> of int for Axis = 1. Ties go to the smallest index; a line holding NaN gives an
// unspecified one of its indexes.
namespace detail {
template <int Axis, class T, class S, class Better>
tile<int, remove_axis_t<Axis, S>> arg_reduce(const tile<T, S>& a, Better better) {
  static_assert((Axis >= 0 && Axis < S::rank) || kShapesCheckedByTranslator, "the reduced axis is one of the tile's axes");
  using R = remove_axis_t<Axis, S>;
  std::array<compute_t<T>, std::size_t(R::size)> best{};
  tile<int, R> where;
  std::array<bool, std::size_t(R::size)> seen{};
  for (std::int64_t i = 0; i < S::size; ++i) {  // row-major: along Axis in increasing order
    const auto index = unravel<S>(i);
    std::array<std::int64_t, std::size_t(R::rank)> kept{};
    for (int axis = 0, k = 0; axis < S::rank; ++axis)
      if (axis != Axis) kept[std::size_t(k++)] = index[std::size_t(axis)];
    const auto slot = std::size_t(offset<R>(kept));
    const auto value = compute_t<T>(a[i]);
    if (!seen[slot] || better(value, best[slot])) {
      seen[slot] = true;
      best[slot] = value;
      where[std::int64_t(slot)] = int(index[std::size_t(Axis)]);
    }
  }
  return where;
}
}  // namespace detail
template <int Axis, class T, class S>
tile<int, remove_axis_t<Axis, S>> argmax(const tile<T, S>& a) {
  return detail::arg_reduce<Axis>(a, [](auto x, auto best) { return x > best; });
}
template <int Axis, class T, class S>
tile<int, remove_axis_t<Axis, S>> argmin(const tile<T, S>& a) {
  return detail::arg_reduce<Axis>(a, [](auto x, auto best) { return x < best; });
}

// Re-inserts axis `Axis` into `x` and broadcasts it to `like`'s shape.
template <int Axis, class T, class R, class U, class S>
tile<T, S> bcast(const tile<T, R>& x, const tile<U, S>&) {
  static_assert(detail::same_shape_v<R, remove_axis_t<Axis, S>>,
                "bcast<Axis>(x, like): x has like's shape without Axis");
  tile<T, S> r;
  for (std::int64_t i = 0; i < S::size; ++i) {
    auto index = detail::unravel<S>(i);
    std::array<std::int64_t, std::size_t(R::rank)> kept{};
    for (int axis = 0, k = 0; axis < S::rank; ++axis)
      if (axis != Axis && k < R::rank) kept[std::size_t(k++)] = index[std::size_t(axis)];
    r[i] = x[std::min(detail::offset<R>(kept), R::size - 1)];
  }
  return r;
}

// The same elements in row-major order, another shape of the same element count.
template <class S2, class T, class S>
tile<T, S2> reshape(const tile<T, S>& a) {
  static_assert(S::size == S2::size || detail::kShapesCheckedByTranslator, "reshape keeps the element count");
  tile<T, S2> r;
  for (std::int64_t i = 0; i < S2::size && i < S::size; ++i) r[i] = a[i];
  return r;
}
// The last two axes swapped: shape<M, N> → shape<N, M>, shape<B, M, N> → shape<B, N, M>.
template <class T, int M, int N>
tile<T, shape<N, M>> transpose(const tile<T, shape<M, N>>& a) {
  tile<T, shape<N, M>> r;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) r[std::int64_t(j) * M + i] = a[std::int64_t(i) * N + j];
  return r;
}
template <class T, int B, int M, int N>
tile<T, shape<B, N, M>> transpose(const tile<T, shape<B, M, N>>& a) {
  tile<T, shape<B, N, M>> r;
  for (int z = 0; z < B; ++z)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) r[(std::int64_t(z) * N + j) * M + i] = a[(std::int64_t(z) * M + i) * N + j];
  return r;
}

// acc + a · b on tensor cores: a is shape<M, K>, b shape<K, N>, acc shape<M, N> of float; a and b
// bf16 or f16. With a leading batch axis (shape<B, M, K> · shape<B, K, N>), each of the B
// matrices is multiplied by its own. Products of bf16 and f16 values are exact in f32; they are
// summed in f32 in k order.
namespace detail {
template <class T>
void multiply_add(const T* a, const T* b, float* acc, int m, int n, int k) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = acc[std::int64_t(i) * n + j];
      for (int p = 0; p < k; ++p) sum += float(a[std::int64_t(i) * k + p]) * float(b[std::int64_t(p) * n + j]);
      acc[std::int64_t(i) * n + j] = sum;
    }
}
}  // namespace detail
template <class T, int M, int K, int K2, int N, class S3>
tile<float, shape<M, N>> mma(const tile<T, shape<M, K>>& a, const tile<T, shape<K2, N>>& b,
                             const tile<float, S3>& acc) {
  static_assert(is_mma16_v<T>, "ct::mma multiplies bf16 or f16 tiles (f32 needs an explicit ct::tf32)");
  static_assert((K == K2 && std::is_same_v<S3, shape<M, N>>) || detail::kShapesCheckedByTranslator,
                "mma(a, b, acc): a is MxK, b is KxN, acc is MxN");
  tile<float, shape<M, N>> r;
  for (std::int64_t i = 0; i < std::int64_t(M) * N; ++i) r[i] = acc[std::min(i, S3::size - 1)];
  if constexpr (K == K2) detail::multiply_add(&a[0], &b[0], &r[0], M, N, K);
  return r;
}
template <class T, int B, int M, int K, int B2, int K2, int N, class S3>
tile<float, shape<B, M, N>> mma(const tile<T, shape<B, M, K>>& a, const tile<T, shape<B2, K2, N>>& b,
                                const tile<float, S3>& acc) {
  static_assert(is_mma16_v<T>, "ct::mma multiplies bf16 or f16 tiles (f32 needs an explicit ct::tf32)");
  static_assert((B == B2 && K == K2 && std::is_same_v<S3, shape<B, M, N>>) || detail::kShapesCheckedByTranslator,
                "mma(a, b, acc): a is BxMxK, b is BxKxN, acc is BxMxN");
  tile<float, shape<B, M, N>> r;
  for (std::int64_t i = 0; i < std::int64_t(B) * M * N; ++i) r[i] = acc[std::min(i, S3::size - 1)];
  if constexpr (B == B2 && K == K2)
    for (int z = 0; z < B; ++z)
      detail::multiply_add(&a[std::int64_t(z) * M * K], &b[std::int64_t(z) * K * N], &r[std::int64_t(z) * M * N], M, N, K);
  return r;
}

// `for (int k : ct::irange(n))`: 0, 1, ..., n - 1, a uniform loop over tiles.
class irange {
 public:
  explicit irange(int count) : count_(count) {}
  struct iterator {
    int value;
    int operator*() const { return value; }
    iterator& operator++() {
      ++value;
      return *this;
    }
    bool operator!=(const iterator& other) const { return value != other.value; }
  };
  iterator begin() const { return {0}; }
  iterator end() const { return {count_ < 0 ? 0 : count_}; }

 private:
  int count_;
};

}  // namespace carbide::tile
