// Reductions of a register tile, and the broadcasts back.
//
// reduce_{sum,max,min}<Axis, Site, Repeated = true>(f) and arg{max,min}<Axis, Site, Repeated>(f)
// along the last axis, in registers and shuffles, for the blocked and the C fragment layouts. The
// result is in rows_of<f's layout> (layouts.hpp): one value per row slot, replicated over every
// thread that holds part of the row, so bcast<Axis>(r, like) is register-local. How a row's
// elements reach each other depends on the layout:
//   blocked (kChunksPerRow = last extent / Vec):
//   - a row within a group of kChunksPerRow ≤ 32 consecutive threads: shfl.xor butterflies;
//   - a row over more threads (whole warps): shfl.xor in each warp, then the warps' partials
//     through __shared__ scratch;
//   - a row longer than the block (several slots a thread): the thread's slots first, then all
//     warps as above.
//   C fragments: a row lies in the 4 lanes of a quad of each warp of a warp row: shfl.xor 1 and
//     2, then, with several warps across (WarpsN > 1), their partials through __shared__ scratch.
// Site numbers the reduction in the kernel; each Site has its own scratch (a static __shared__
// array in its own template instance). A Repeated call (a site in a loop) brackets its scratch use
// with two barriers, so that it cannot overwrite partials another warp is still reading from the
// previous iteration; a site that runs once needs only the barrier between its writes and reads.
// The barriers sit in uniform control flow because tile kernels have no thread-dependent branches.
//
// reduce_across<Op, Axis, ToLayout, Capacity>(f): along any axis of any layout, through the
// dynamic shared memory (exchange.hpp), each result element folded by the threads that hold it.
#pragma once

#include <carbide/tile/block.hpp>
#include <carbide/tile/elementwise.hpp>
#include <carbide/tile/exchange.hpp>
#include <carbide/tile/layouts.hpp>

#include <climits>
#include <limits>
#include <type_traits>

namespace carbide::tile::detail {

// The operations, in the compute type C: the value a reduction carries (`value`), its identity(),
// how two combine, how an element becomes one (`lift`, given its index along the axis) and what
// the result holds (`finish`, of element type result_t<T>).
template <class C>
struct plain_reduction {
  using value = C;
  template <class T>
  using result_t = T;
  static CARBIDE_TILE_HD value lift(C x, int /*index*/) { return x; }
  template <class T>
  static CARBIDE_TILE_HD T finish(value v) {
    return convert<T>(v);
  }
};
template <class C>
struct reduce_sum_op : plain_reduction<C> {
  static constexpr C kIdentity = C(0);
  static CARBIDE_TILE_HD C identity() { return kIdentity; }
  static CARBIDE_TILE_HD C combine(C a, C b) { return a + b; }
};
template <class C>
struct reduce_max_op : plain_reduction<C> {
  static constexpr C kIdentity =
      std::numeric_limits<C>::has_infinity ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::lowest();
  static CARBIDE_TILE_HD C identity() { return kIdentity; }
  static CARBIDE_TILE_HD C combine(C a, C b) { return b > a ? b : a; }
};
template <class C>
struct reduce_min_op : plain_reduction<C> {
  static constexpr C kIdentity =
      std::numeric_limits<C>::has_infinity ? std::numeric_limits<C>::infinity() : std::numeric_limits<C>::max();
  static CARBIDE_TILE_HD C identity() { return kIdentity; }
  static CARBIDE_TILE_HD C combine(C a, C b) { return b < a ? b : a; }
};

// argmax and argmin carry a value and its index; ties go to the smaller index, as in
// <carbide/tile.hpp> (which scans in order), whatever order the tree combines in.
template <class C>
struct indexed {
  C v;
  int i;
};
template <class C, class Better>
struct arg_reduction {
  using value = indexed<C>;
  template <class T>
  using result_t = int;
  static CARBIDE_TILE_HD value lift(C x, int index) { return {x, index}; }
  template <class T>
  static CARBIDE_TILE_HD int finish(value v) {
    return v.i;
  }
  static CARBIDE_TILE_HD value combine(value a, value b) {
    return Better::better(b.v, a.v) || (b.v == a.v && b.i < a.i) ? b : a;
  }
};
template <class C>
struct greater {
  static CARBIDE_TILE_HD bool better(C x, C y) { return x > y; }
};
template <class C>
struct less {
  static CARBIDE_TILE_HD bool better(C x, C y) { return x < y; }
};
template <class C>
struct argmax_op : arg_reduction<C, greater<C>> {
  static CARBIDE_TILE_HD indexed<C> identity() { return {reduce_max_op<C>::kIdentity, INT_MAX}; }
};
template <class C>
struct argmin_op : arg_reduction<C, less<C>> {
  static CARBIDE_TILE_HD indexed<C> identity() { return {reduce_min_op<C>::kIdentity, INT_MAX}; }
};

#if defined(__CUDACC__)

// The scratch of reduction site Site: Size values of V, in this block's shared memory.
template <int Site, class V, int Size>
CARBIDE_TILE_DEVICE V* reduction_scratch() {
  __shared__ V scratch[Size];
  return scratch;
}

template <class C>
CARBIDE_TILE_DEVICE C shuffle_xor(C x, int lane_mask) {
  return __shfl_xor_sync(0xffffffffu, x, lane_mask);
}
template <class C>
CARBIDE_TILE_DEVICE indexed<C> shuffle_xor(indexed<C> x, int lane_mask) {
  return {__shfl_xor_sync(0xffffffffu, x.v, lane_mask), __shfl_xor_sync(0xffffffffu, x.i, lane_mask)};
}

// Combines each value over the lanes lane ^ d for d < Width (a power of two ≤ 32); afterwards
// every lane of each aligned group of Width lanes holds the group's result.
template <class Op, int Width, int N, class V>
CARBIDE_TILE_DEVICE void butterfly(V (&values)[N]) {
CARBIDE_TILE_UNROLL
  for (int d = Width / 2; d > 0; d /= 2)
CARBIDE_TILE_UNROLL
    for (int n = 0; n < N; ++n) values[n] = Op::combine(values[n], shuffle_xor(values[n], d));
}

// values[n] (already combined within each warp) combined over the Span consecutive warps that
// hold the same row: through Site's scratch, one value per warp and n. A site that runs again
// (in a loop) first waits until every thread has read its previous values.
template <class Op, int Site, bool Repeated, int Warps, int Span, int N, class V>
CARBIDE_TILE_DEVICE void combine_warps(V (&values)[N]) {
  V* scratch = reduction_scratch<Site, V, N * Warps>();
  const int warp = threadIdx.x / 32, first = warp / Span * Span;
  if constexpr (Repeated) __syncthreads();
  if (threadIdx.x % 32 == 0)
CARBIDE_TILE_UNROLL
    for (int n = 0; n < N; ++n) scratch[n * Warps + warp] = values[n];
  __syncthreads();
CARBIDE_TILE_UNROLL
  for (int n = 0; n < N; ++n) {
    V total = scratch[n * Warps + first];
CARBIDE_TILE_UNROLL
    for (int w = 1; w < Span; ++w) total = Op::combine(total, scratch[n * Warps + first + w]);
    values[n] = total;
  }
}

template <class Op, int Axis, int Site, bool Repeated, class T, class Shape, int Threads, int Vec>
CARBIDE_TILE_DEVICE auto reduce_blocked(const frag<T, Shape, blocked<Threads, Vec>>& f) {
  static_assert(Threads % 32 == 0, "reductions need whole warps");
  using L = layout_of<Shape, blocked<Threads, Vec>>;
  using C = compute_t<T>;
  using V = typename Op::value;
  using R = typename Op::template result_t<T>;
  constexpr int kChunksPerRow = L::kChunksPerRow, kWarps = Threads / 32;
  const unsigned thread = threadIdx.x;

  // Each slot's chunk folded to one value (the identity for a slot this thread lacks).
  V slot_values[L::kSlots];
CARBIDE_TILE_UNROLL
  for (int s = 0; s < L::kSlots; ++s) {
    slot_values[s] = Op::identity();
    if (L::kRagged && s * Threads + int(thread) >= L::kChunks) continue;
CARBIDE_TILE_UNROLL
    for (int j = 0; j < Vec; ++j)
      slot_values[s] = Op::combine(slot_values[s], Op::lift(convert<C>(f.v[s * Vec + j]), chunk_column<L>(s, thread) + j));
  }

  frag<R, remove_axis_t<Axis, Shape>, rows_layout_t<blocked<Threads, Vec>, Shape::last()>> r;
  if constexpr (kChunksPerRow <= Threads) {
    static_assert(Threads % kChunksPerRow == 0 && (kChunksPerRow & (kChunksPerRow - 1)) == 0,
                  "a row's chunks: a power of two that divides the threads, or a multiple of the threads");
    if constexpr (kChunksPerRow <= 32) {
      butterfly<Op, kChunksPerRow>(slot_values);
    } else {
      butterfly<Op, 32>(slot_values);
      combine_warps<Op, Site, Repeated, kWarps, kChunksPerRow / 32>(slot_values);
    }
CARBIDE_TILE_UNROLL
    for (int s = 0; s < L::kSlots; ++s) r.v[s] = Op::template finish<R>(slot_values[s]);
  } else {
    static_assert(kChunksPerRow % Threads == 0, "a row's chunks: a multiple of the threads, or a divisor");
    constexpr int kSlotsPerRow = kChunksPerRow / Threads, kRows = L::kSlots / kSlotsPerRow;
    V row_values[kRows];
CARBIDE_TILE_UNROLL
    for (int row = 0; row < kRows; ++row) {
      row_values[row] = slot_values[row * kSlotsPerRow];
CARBIDE_TILE_UNROLL
      for (int s = 1; s < kSlotsPerRow; ++s) row_values[row] = Op::combine(row_values[row], slot_values[row * kSlotsPerRow + s]);
    }
    butterfly<Op, 32>(row_values);
    if constexpr (kWarps > 1) combine_warps<Op, Site, Repeated, kWarps, kWarps>(row_values);
CARBIDE_TILE_UNROLL
    for (int s = 0; s < L::kSlots; ++s) r.v[s] = Op::template finish<R>(row_values[s / kSlotsPerRow]);
  }
  return r;
}

// A C fragment layout's rows: each thread's elements folded per row slot, then the quad's four
// lanes, then the warps of a warp row through Site's scratch.
template <class Op, int Axis, int Site, bool Repeated, class T, class Shape, class Layout>
CARBIDE_TILE_DEVICE auto reduce_c_fragment(const frag<T, Shape, Layout>& f) {
  using L = layout_of<Shape, Layout>;
  using C = compute_t<T>;
  using V = typename Op::value;
  using R = typename Op::template result_t<T>;
  const int thread = threadIdx.x;
  V rows[L::kRowSlots];
CARBIDE_TILE_UNROLL
  for (int s = 0; s < L::kRowSlots; ++s) rows[s] = Op::identity();
CARBIDE_TILE_UNROLL
  for (int i = 0; i < L::kCount; ++i)
    rows[L::row_slot(i)] = Op::combine(rows[L::row_slot(i)], Op::lift(convert<C>(f.v[i]), L::column(thread, i)));
  butterfly<Op, 4>(rows);
  if constexpr (L::kWarpsN > 1) {
    V* scratch = reduction_scratch<Site, V, L::kRows * L::kWarpsN>();
    if constexpr (Repeated) __syncthreads();
    if (thread % 4 == 0)
CARBIDE_TILE_UNROLL
      for (int s = 0; s < L::kRowSlots; ++s) {
        const int row = L::slot_row(thread, s);
        if (row >= 0) scratch[L::warp_n(thread) * L::kRows + row] = rows[s];
      }
    __syncthreads();
CARBIDE_TILE_UNROLL
    for (int s = 0; s < L::kRowSlots; ++s) {
      const int row = L::slot_row(thread, s);
      if (row < 0) continue;
      V total = scratch[row];
CARBIDE_TILE_UNROLL
      for (int w = 1; w < L::kWarpsN; ++w) total = Op::combine(total, scratch[w * L::kRows + row]);
      rows[s] = total;
    }
  }
  frag<R, remove_axis_t<Axis, Shape>, rows_layout_t<Layout, Shape::last()>> r;
CARBIDE_TILE_UNROLL
  for (int s = 0; s < L::kRowSlots; ++s) r.v[s] = Op::template finish<R>(rows[s]);
  return r;
}

template <template <class> class OpOf, int Axis, int Site, bool Repeated, class T, class Shape, class Layout>
CARBIDE_TILE_DEVICE auto reduce(const frag<T, Shape, Layout>& f) {
  static_assert(Axis == Shape::rank - 1, "reductions in registers run along the last axis (reduce_across: any)");
  using Op = OpOf<compute_t<T>>;
  if constexpr (is_blocked_v<Layout>)
    return reduce_blocked<Op, Axis, Site, Repeated>(f);
  else
    return reduce_c_fragment<Op, Axis, Site, Repeated>(f);
}

template <int Axis, int Site, bool Repeated = true, class T, class Shape, class Layout>
CARBIDE_TILE_DEVICE auto reduce_sum(const frag<T, Shape, Layout>& f) {
  return reduce<reduce_sum_op, Axis, Site, Repeated>(f);
}
template <int Axis, int Site, bool Repeated = true, class T, class Shape, class Layout>
CARBIDE_TILE_DEVICE auto reduce_max(const frag<T, Shape, Layout>& f) {
  return reduce<reduce_max_op, Axis, Site, Repeated>(f);
}
template <int Axis, int Site, bool Repeated = true, class T, class Shape, class Layout>
CARBIDE_TILE_DEVICE auto reduce_min(const frag<T, Shape, Layout>& f) {
  return reduce<reduce_min_op, Axis, Site, Repeated>(f);
}
template <int Axis, int Site, bool Repeated = true, class T, class Shape, class Layout>
CARBIDE_TILE_DEVICE auto argmax(const frag<T, Shape, Layout>& f) {
  return reduce<argmax_op, Axis, Site, Repeated>(f);
}
template <int Axis, int Site, bool Repeated = true, class T, class Shape, class Layout>
CARBIDE_TILE_DEVICE auto argmin(const frag<T, Shape, Layout>& f) {
  return reduce<argmin_op, Axis, Site, Repeated>(f);
}

// Along any axis, into layout ToLayout: the tile through the dynamic shared memory in the compute
// type, then each result element folded along Axis in index order by each thread that holds it.
template <template <class> class OpOf, int Axis, class ToLayout, int Capacity, class T, class Shape, class Layout>
CARBIDE_TILE_DEVICE auto reduce_across(const frag<T, Shape, Layout>& f) {
  using C = compute_t<T>;
  using Op = OpOf<C>;
  using R = typename Op::template result_t<T>;
  using RShape = remove_axis_t<Axis, Shape>;
  static_assert(Axis >= 0 && Axis < Shape::rank, "the reduced axis is one of the tile's axes");
  static_assert(Shape::size * sizeof(C) <= std::uint64_t(Capacity), "the plan gives this exchange its bytes");
  int stride = 1;  // between neighbours along Axis
  for (int axis = Shape::rank - 1; axis > Axis; --axis) stride *= extents<Shape>::at(axis);
  C* shared = reinterpret_cast<C*>(scratch());
  __syncthreads();
  spill(f, shared);
  __syncthreads();
  return gather<R, RShape, ToLayout>([&](int e) {
    int at = 0;  // element e of the result with coordinate 0 along Axis, in the source
    for (int axis = 0, kept = 0; axis < Shape::rank; ++axis)
      at = at * extents<Shape>::at(axis) + (axis == Axis ? 0 : coordinate<RShape>(e, kept++));
    typename Op::value total = Op::identity();
    for (int x = 0; x < extents<Shape>::at(Axis); ++x) total = Op::combine(total, Op::lift(shared[at + x * stride], x));
    return Op::template finish<R>(total);
  });
}

#endif  // __CUDACC__

// A row vector re-expanded along the last axis to `like`'s shape and layout: each element takes
// its row slot's value, in registers.
template <int Axis, class T, class RowShape, class Layout, int Last, class U, class Shape>
CARBIDE_TILE_HD frag<T, Shape, Layout> bcast(const frag<T, RowShape, rows_of<Layout, Last>>& r,
                                             const frag<U, Shape, Layout>& /*like*/) {
  static_assert(Axis == Shape::rank - 1, "bcast in registers re-inserts the last axis");
  static_assert(std::is_same_v<rows_of<Layout, Last>, rows_layout_t<Layout, Shape::last()>>,
                "bcast re-inserts the axis that was reduced");
  static_assert(std::is_same_v<RowShape, remove_axis_t<Axis, Shape>>, "bcast to the shape that was reduced");
  using L = layout_of<Shape, Layout>;
  frag<T, Shape, Layout> f;
CARBIDE_TILE_UNROLL
  for (int i = 0; i < f.kCount; ++i) f.v[i] = r.v[L::row_slot(i)];
  return f;
}
// A column vector (one value per column) spread across the rows of a matrix `like`: each element
// takes its column slot's value, in registers.
template <int Axis, class T, class ColShape, class Layout, int Rows, class U, class Shape>
CARBIDE_TILE_HD frag<T, Shape, Layout> bcast(const frag<T, ColShape, cols_of<Layout, Rows>>& c,
                                             const frag<U, Shape, Layout>& /*like*/) {
  static_assert(Axis == Shape::rank - 2 && Shape::size == std::int64_t(extents<Shape>::at(Axis)) * Shape::last(),
                "bcast in registers spreads a row across the rows of a matrix");
  static_assert(std::is_same_v<cols_of<Layout, Rows>, cols_layout_t<Layout, extents<Shape>::at(Axis)>>,
                "the row's layout is the matrix's columns");
  using L = layout_of<Shape, Layout>;
  frag<T, Shape, Layout> f;
CARBIDE_TILE_UNROLL
  for (int i = 0; i < f.kCount; ++i) f.v[i] = c.v[L::col_slot(i)];
  return f;
}

}  // namespace carbide::tile::detail
