// Static tile shapes, `ct::shape<BM, BN>` (ct = carbide::tile): the one type that the user's
// tile kernels, the host runtime (Partition<T, Shape>) and the device library all name, so it
// has no dependency on either side.
#pragma once

#include <cstdint>
#include <type_traits>
#include <string>

namespace carbide::tile {

template <int... Extents>
struct shape {
  static_assert(((Extents > 0) && ...), "a tile shape's extents are positive");
  static constexpr int rank = sizeof...(Extents);
  static constexpr std::int64_t size = (std::int64_t{1} * ... * Extents);
  // Extent of axis `axis` (0 = outermost); 1 past the rank, so a rank-0 shape has a last extent of 1.
  static constexpr int extent(int axis) {
    constexpr int extents[] = {Extents..., 1};
    return axis < rank ? extents[axis] : 1;
  }
  static constexpr int last() { return rank == 0 ? 1 : extent(rank - 1); }
  static std::string text() {  // `shape<1, 1024>`, as messages name it
    std::string out = "shape<";
    int i = 0;
    ((out += (i++ ? ", " : "") + std::to_string(Extents)), ...);
    return out + ">";
  }
};

template <class T>
inline constexpr bool is_shape_v = false;
template <int... E>
inline constexpr bool is_shape_v<shape<E...>> = true;

namespace detail {
template <int Axis, class Shape, class Kept, int I>
struct remove_axis_impl;
template <int Axis, int... Kept, int I>
struct remove_axis_impl<Axis, shape<>, shape<Kept...>, I> {
  using type = shape<Kept...>;
};
template <int Axis, int First, int... Rest, int... Kept, int I>
struct remove_axis_impl<Axis, shape<First, Rest...>, shape<Kept...>, I> {
  using type = typename std::conditional_t<
      I == Axis, remove_axis_impl<Axis, shape<Rest...>, shape<Kept...>, I + 1>,
      remove_axis_impl<Axis, shape<Rest...>, shape<Kept..., First>, I + 1>>::type;
};
}  // namespace detail

// `shape<BM, BN>` without axis `Axis`: what a reduction along it leaves.
template <int Axis, class Shape>
using remove_axis_t = typename detail::remove_axis_impl<Axis, Shape, shape<>, 0>::type;

}  // namespace carbide::tile
