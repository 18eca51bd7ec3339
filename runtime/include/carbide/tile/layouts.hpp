// The register layouts besides blocked (block.hpp), and what every layout answers, so that the
// operations that move elements between threads (exchange.hpp) work on any of them.
//
// Every layout_of<Shape, Layout> gives kCount (the elements a thread holds) and index(thread, i):
// the row-major linear index within the tile of element i of `thread`, or -1 where the thread
// holds nothing there. Layouts see a tile as a matrix: rows are its leading extents flattened,
// columns its last axis (docs/tile-lowering.md). Layouts that keep whole rows or columns
// together also give row and column slots:
//   kRowSlots, row_slot(i), slot_row(thread, s): element i lies in row slot row_slot(i), which
//     is row slot_row(thread, s) of the tile (-1: none);
//   kColSlots, col_slot(i), slot_column(thread, c): the same for columns.
// rows_of<L> holds one value per row slot of L (what a reduction along the last axis leaves, what
// bcast along it takes back in registers), cols_of<L> one per column slot (bcast<0> of a row
// vector across the rows).
//
// The C fragments of mma.sync m16n8k16 (mma.hpp's m16n8k16 C map) spread over a grid of warps
// are the layout of every mma result: mma_c<WarpsM, WarpsN> for mma in a tile kernel's body, and
// the GEMM plans' accumulators (sm80::acc, sm90::acc), which use the same map.
#pragma once

#include <carbide/tile/block.hpp>
#include <carbide/tile/mma.hpp>
#include <carbide/tile/shape.hpp>

namespace carbide::tile::detail {

// Where the C fragments of an M × N tile lie when warps WarpsM × WarpsN each own a warp tile of
// (M / WarpsM) × (N / WarpsN) in m16n8 pieces, from thread First on (threads before it hold
// nothing: a Hopper GEMM's producer warpgroup). Element i of a thread is piece (mi, ni) =
// (i / 4 / kMmaN, i / 4 % kMmaN), register i % 4 of the m16n8 C fragment.
template <int M, int N, int WarpsM, int WarpsN, int First = 0>
struct c_fragment_map {
  static constexpr int kRows = M, kCols = N, kWarpsM = WarpsM, kWarpsN = WarpsN, kFirst = First;
  static constexpr int kWarpTileM = M / WarpsM, kWarpTileN = N / WarpsN;
  static_assert(kWarpTileM % 16 == 0 && kWarpTileN % 8 == 0, "warp tiles of whole m16n8 pieces");
  static constexpr int kMmaM = kWarpTileM / 16, kMmaN = kWarpTileN / 8;
  static constexpr int kCount = kMmaM * kMmaN * 4;
  static constexpr int kThreads = First + 32 * WarpsM * WarpsN;
  using piece = ::carbide::tile::sm80::m16n8k16;

  static CARBIDE_TILE_CONSTEXPR int warp_m(int thread) { return (thread - First) / 32 / WarpsN; }
  static CARBIDE_TILE_CONSTEXPR int warp_n(int thread) { return (thread - First) / 32 % WarpsN; }
  static CARBIDE_TILE_CONSTEXPR int row(int thread, int i) {
    return thread < First ? -1 : warp_m(thread) * kWarpTileM + i / 4 / kMmaN * 16 + piece::c_row(thread % 32, i % 4);
  }
  static CARBIDE_TILE_CONSTEXPR int column(int thread, int i) {
    return thread < First ? -1 : warp_n(thread) * kWarpTileN + i / 4 % kMmaN * 8 + piece::c_col(thread % 32, i % 4);
  }
  static CARBIDE_TILE_CONSTEXPR int index(int thread, int i) {
    return thread < First ? -1 : row(thread, i) * N + column(thread, i);
  }

  // Rows: piece row mi, upper (g) or lower (g + 8) half. Columns: piece column ni, even or odd.
  static constexpr int kRowSlots = kMmaM * 2;
  static CARBIDE_TILE_CONSTEXPR int row_slot(int i) { return i / 4 / kMmaN * 2 + i % 4 / 2; }
  static CARBIDE_TILE_CONSTEXPR int slot_row(int thread, int s) {
    return thread < First ? -1 : warp_m(thread) * kWarpTileM + s / 2 * 16 + thread % 32 / 4 + s % 2 * 8;
  }
  static constexpr int kColSlots = kMmaN * 2;
  static CARBIDE_TILE_CONSTEXPR int col_slot(int i) { return i / 4 % kMmaN * 2 + i % 2; }
  static CARBIDE_TILE_CONSTEXPR int slot_column(int thread, int c) {
    return thread < First ? -1 : warp_n(thread) * kWarpTileN + c / 2 * 8 + thread % 4 * 2 + c % 2;
  }
};

// The result of an mma in a tile kernel's body (mma_block.hpp): the C fragments over WarpsM ×
// WarpsN warps, whatever the tile's matrix size.
template <int WarpsM, int WarpsN>
struct mma_c {};

template <class Shape, int WarpsM, int WarpsN>
struct layout_of<Shape, mma_c<WarpsM, WarpsN>>
    : c_fragment_map<int(Shape::size / Shape::last()), Shape::last(), WarpsM, WarpsN> {};

// Layouts whose elements are C fragments: their row reductions run in quads of lanes
// (block_reduce.hpp), and the layout of their row and column vectors does not depend on the
// other extent.
template <class Layout>
inline constexpr bool is_c_fragment_v = false;
template <int WarpsM, int WarpsN>
inline constexpr bool is_c_fragment_v<mma_c<WarpsM, WarpsN>> = true;

// A C fragment layout's matrix when only one of its extents is known (a row vector's columns,
// a column vector's rows): any extent whose warp tiles are whole pieces maps the other alike.
template <class Layout>
struct c_fragment_extents {
  static constexpr int kRows = 16, kCols = 8;
};
template <int WarpsM, int WarpsN>
struct c_fragment_extents<mma_c<WarpsM, WarpsN>> {
  static constexpr int kRows = 16 * WarpsM, kCols = 8 * WarpsN;
};

// One value per row slot of Parent over a tile of Last columns: a tile of the rows' shape (a
// reduction's result, a row state carried through a loop). For C fragment parents the rows do
// not depend on the columns, and Last is 0.
template <class Parent, int Last>
struct rows_of {};
// One value per column slot of Parent over a tile of Rows rows: a row vector as bcast<0> spreads
// it across the rows. Rows is 0 for C fragment parents.
template <class Parent, int Rows>
struct cols_of {};

template <class Layout, int Last>
using rows_layout_t = rows_of<Layout, is_c_fragment_v<Layout> ? 0 : Last>;
template <class Layout, int Rows>
using cols_layout_t = cols_of<Layout, is_c_fragment_v<Layout> ? 0 : Rows>;

// The parent's layout over the matrix a vector of `Size` elements came from.
template <class Parent, int Last, int Size>
using rows_parent_t = layout_of<shape<Size, (is_c_fragment_v<Parent> ? c_fragment_extents<Parent>::kCols : Last)>, Parent>;
template <class Parent, int Rows, int Size>
using cols_parent_t = layout_of<shape<(is_c_fragment_v<Parent> ? c_fragment_extents<Parent>::kRows : Rows), Size>, Parent>;

template <class Shape, class Parent, int Last>
struct layout_of<Shape, rows_of<Parent, Last>> {
  using parent = rows_parent_t<Parent, Last, int(Shape::size)>;
  static constexpr int kCount = parent::kRowSlots;
  static CARBIDE_TILE_CONSTEXPR int index(int thread, int s) { return parent::slot_row(thread, s); }
};
template <class Shape, class Parent, int Rows>
struct layout_of<Shape, cols_of<Parent, Rows>> {
  using parent = cols_parent_t<Parent, Rows, int(Shape::size)>;
  static constexpr int kCount = parent::kColSlots;
  static CARBIDE_TILE_CONSTEXPR int index(int thread, int c) { return parent::slot_column(thread, c); }
};

template <class Layout>
inline constexpr bool is_vector_layout_v = false;
template <class Parent, int Last>
inline constexpr bool is_vector_layout_v<rows_of<Parent, Last>> = true;
template <class Parent, int Rows>
inline constexpr bool is_vector_layout_v<cols_of<Parent, Rows>> = true;

// Checks, by enumeration, that a layout deals out every element of a tile to some thread, and
// only those (host-visible: tests/unit/tile_layouts_test.cpp runs it over the planner's layouts).
template <class Shape, class Layout, int Threads>
constexpr bool covers_every_element() {
  using L = layout_of<Shape, Layout>;
  bool held[Shape::size] = {};
  for (int t = 0; t < Threads; ++t)
    for (int i = 0; i < L::kCount; ++i) {
      const int e = L::index(t, i);
      if (e >= int(Shape::size)) return false;
      if (e >= 0) held[e] = true;
    }
  for (bool each : held)
    if (!each) return false;
  return true;
}

}  // namespace carbide::tile::detail
