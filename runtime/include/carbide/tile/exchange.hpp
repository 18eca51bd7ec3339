// What moves a tile's elements between threads in any layout, through the block's dynamic shared
// memory: a change of layout, a reshape or transpose that the registers cannot follow, a bcast
// along an axis other than the last, a reduction across rows; and what reads, writes and numbers
// a tile element by element in any layout. Each works from layouts.hpp's index maps alone, so it
// is correct for every layout; block_reduce.hpp and mma_block.hpp have the register paths that the
// planner prefers where a layout allows one (docs/tile-lowering.md, "Layouts").
//
// Every operation here that uses shared memory is a site the planner sized: Capacity is the bytes
// the launch gives the kernel (at least the tile's, which each checks). A site starts with a
// barrier, so that it cannot overwrite what the previous site's threads are still reading, and
// puts one between its writes and its reads. Tile kernels have no thread-dependent branches, so
// the barriers are in uniform control flow.
#pragma once

#include <carbide/tile/block.hpp>
#include <carbide/tile/layouts.hpp>

#include <cstdint>
#include <type_traits>

namespace carbide::tile::detail {

// The multi-index of element `e` (row-major) of a tile of Shape, along axis `axis`.
template <class Shape>
CARBIDE_TILE_HD int coordinate(int e, int axis) {
  for (int a = Shape::rank - 1; a > axis; --a) e /= extents<Shape>::at(a);
  return e % extents<Shape>::at(axis);
}

#if defined(__CUDACC__)

// The dynamic shared memory of the launch; the GEMM plans' stages use the same bytes
// (sm80::dynamic_smem), which their main loops are done with before any site here runs.
CARBIDE_TILE_DEVICE unsigned char* scratch() {
  extern __shared__ __align__(128) unsigned char carbide_tile_dynamic_smem[];
  return carbide_tile_dynamic_smem;
}

// Every element this thread holds, written at its linear index of `to` (threads that hold the
// same element of a replicated layout write the same value).
template <class C, class T, class Shape, class Layout>
CARBIDE_TILE_DEVICE void spill(const frag<T, Shape, Layout>& f, C* to) {
  using L = layout_of<Shape, Layout>;
  const int thread = threadIdx.x;
#pragma unroll
  for (int i = 0; i < L::kCount; ++i) {
    const int e = L::index(thread, i);
    if (e >= 0) to[e] = convert<C>(f.v[i]);
  }
}

// A tile of Shape in Layout whose element e is `at(e)`; elements a thread does not hold are zero.
template <class T, class Shape, class Layout, class At>
CARBIDE_TILE_DEVICE frag<T, Shape, Layout> gather(At at) {
  using L = layout_of<Shape, Layout>;
  const int thread = threadIdx.x;
  frag<T, Shape, Layout> r;
#pragma unroll
  for (int i = 0; i < L::kCount; ++i) {
    const int e = L::index(thread, i);
    r.v[i] = e >= 0 ? convert<T>(at(e)) : T{};
  }
  return r;
}

// The tile in layout To, through shared memory (the same tile when it is in To already).
template <class To, int Capacity, class T, class Shape, class From>
CARBIDE_TILE_DEVICE frag<T, Shape, To> relayout(const frag<T, Shape, From>& f) {
  if constexpr (std::is_same_v<To, From>) {
    return f;
  } else {
    static_assert(Shape::size * sizeof(T) <= std::uint64_t(Capacity), "the plan gives this exchange its bytes");
    T* shared = reinterpret_cast<T*>(scratch());
    __syncthreads();
    spill(f, shared);
    __syncthreads();
    return gather<T, Shape, To>([&](int e) { return shared[e]; });
  }
}

// Layouts whose index map depends only on a tile's matrix (rows × last extent), so that a reshape
// keeping the last extent keeps every element where it is.
template <class Layout>
inline constexpr bool maps_matrix_v = is_c_fragment_v<Layout> || is_vector_layout_v<Layout>;

template <class To, class ToLayout, class Shape, class Layout>
constexpr bool same_layout_reshape(bool same_matrix) {
  if constexpr (!std::is_same_v<Layout, ToLayout>) return false;
  else if constexpr (is_blocked_v<Layout>)
    return To::last() % Layout::kVec == 0 && Shape::last() % Layout::kVec == 0 &&
           layout_of<To, ToLayout>::kCount == layout_of<Shape, Layout>::kCount;
  else return maps_matrix_v<Layout> && (same_matrix || is_vector_layout_v<Layout>);
}

// The same elements in row-major order as a tile of shape To in layout ToLayout: in the registers
// where both layouts deal the elements alike (blocked chunks that Vec divides into both shapes;
// the matrix layouts when the last extent stays), through shared memory otherwise.
template <class To, class ToLayout, int Capacity, class T, class Shape, class Layout>
CARBIDE_TILE_DEVICE frag<T, To, ToLayout> reshape(const frag<T, Shape, Layout>& a) {
  static_assert(To::size == Shape::size, "reshape keeps the element count");
  constexpr bool same_matrix = extents<To>::at(To::rank - 1) == extents<Shape>::at(Shape::rank - 1) || To::rank == 0 ||
                               Shape::rank == 0;
  if constexpr (same_layout_reshape<To, ToLayout, Shape, Layout>(same_matrix)) {
    frag<T, To, ToLayout> r;
#pragma unroll
    for (int i = 0; i < r.kCount; ++i) r.v[i] = a.v[i];
    return r;
  } else {
    static_assert(Shape::size * sizeof(T) <= std::uint64_t(Capacity), "the plan gives this exchange its bytes");
    T* shared = reinterpret_cast<T*>(scratch());
    __syncthreads();
    spill(a, shared);
    __syncthreads();
    return gather<T, To, ToLayout>([&](int e) { return shared[e]; });
  }
}
// The blocked reshape the emitter writes for kernels of one blocked layout: registers only.
template <class To, class T, class Shape, int Threads, int Vec>
CARBIDE_TILE_DEVICE frag<T, To, blocked<Threads, Vec>> reshape(const frag<T, Shape, blocked<Threads, Vec>>& a) {
  return reshape<To, blocked<Threads, Vec>, 0>(a);
}

// The last two axes swapped (shape<M, N> → shape<N, M>, shape<B, M, N> → shape<B, N, M>), in
// layout ToLayout, through shared memory.
template <class ToLayout, int Capacity, class T, class Shape, class Layout>
CARBIDE_TILE_DEVICE auto transpose(const frag<T, Shape, Layout>& a) {
  static_assert(Shape::rank >= 2, "transpose swaps the last two axes");
  constexpr int kM = extents<Shape>::at(Shape::rank - 2), kN = extents<Shape>::at(Shape::rank - 1);
  using To = std::conditional_t<Shape::rank == 2, shape<kN, kM>, shape<extents<Shape>::at(0), kN, kM>>;
  static_assert(Shape::rank <= 3, "transpose of a tile of rank 2, or 3 with a batch axis");
  static_assert(Shape::size * sizeof(T) <= std::uint64_t(Capacity), "the plan gives this exchange its bytes");
  T* shared = reinterpret_cast<T*>(scratch());
  __syncthreads();
  spill(a, shared);
  __syncthreads();
  // Element (z, j, i) of the result is (z, i, j) of the source.
  return gather<T, To, ToLayout>([&](int e) {
    const int i = e % kM, j = e / kM % kN, z = e / (kM * kN);
    return shared[(z * kM + i) * kN + j];
  });
}

// x (like's shape without Axis) spread along Axis to like's shape and layout, through shared
// memory: for the axes the registers cannot follow (block_reduce.hpp has the last axis and the
// first of a matrix).
template <int Axis, int Capacity, class T, class XShape, class XLayout, class U, class Shape, class Layout>
CARBIDE_TILE_DEVICE frag<T, Shape, Layout> bcast_any(const frag<T, XShape, XLayout>& x,
                                                     const frag<U, Shape, Layout>& /*like*/) {
  static_assert(std::is_same_v<XShape, remove_axis_t<Axis, Shape>>, "bcast<Axis>(x, like): x is like without Axis");
  static_assert(XShape::size * sizeof(T) <= std::uint64_t(Capacity), "the plan gives this exchange its bytes");
  T* shared = reinterpret_cast<T*>(scratch());
  __syncthreads();
  spill(x, shared);
  __syncthreads();
  return gather<T, Shape, Layout>([&](int e) {
    int at = 0;
    for (int axis = 0; axis < Shape::rank; ++axis)
      if (axis != Axis) at = at * extents<Shape>::at(axis) + coordinate<Shape>(e, axis);
    return shared[at];
  });
}

// Each element's index along Axis, or its row-major linear index within the tile (Axis -1).
template <class T, class Shape, class Layout, int Axis = -1>
CARBIDE_TILE_DEVICE frag<T, Shape, Layout> iota() {
  static_assert(Axis >= -1 && Axis < Shape::rank, "iota's axis is one of the tile's axes");
  using L = layout_of<Shape, Layout>;
  const int thread = threadIdx.x;
  frag<T, Shape, Layout> f;
#pragma unroll
  for (int i = 0; i < L::kCount; ++i) {
    const int e = L::index(thread, i);  // -1: an element the thread does not hold, left 0
    f.v[i] = convert<T>(e < 0 ? 0 : Axis < 0 ? e : coordinate<Shape>(e, Axis < 0 ? 0 : Axis));
  }
  return f;
}

// The element offset in `arg` (an in_arg or out_arg) of element e of the tile of Shape at
// `tile`, or -1 when it lies outside the tensor.
template <class Shape, class Arg, int Rank>
CARBIDE_TILE_DEVICE std::int64_t element_at(const Arg& arg, const tile_coord<Rank>& tile, int e) {
  static_assert(Shape::rank == Rank, "a tile's rank is the tensor's");
  std::int64_t offset = 0;
#pragma unroll
  for (int axis = 0; axis < Rank; ++axis) {
    const std::int64_t x = std::int64_t(tile[axis]) * extents<Shape>::at(axis) + coordinate<Shape>(e, axis);
    if (x >= arg.extent[axis]) return -1;
    offset += x * arg.stride[axis];
  }
  return offset;
}

template <class Shape, class Layout, class T, int Rank, class Pad>
CARBIDE_TILE_DEVICE frag<T, Shape, Layout> load_mapped(const in_arg<T, Rank>& in, const tile_coord<Rank>& tile, Pad pad) {
  const T pad_value = convert<T>(pad);
  return gather<T, Shape, Layout>([&](int e) {
    const std::int64_t at = element_at<Shape>(in, tile, e);
    return at < 0 ? pad_value : in.data[at];
  });
}

// Writes the elements of `f` inside `out`, element by element: the layouts without a store of
// their own (blocked and the GEMM accumulators have faster ones).
template <bool Whole = false, class T, int Rank, class Shape, class Layout>
CARBIDE_TILE_DEVICE void store(const out_arg<T, Rank>& out, const tile_coord<Rank>& tile, const frag<T, Shape, Layout>& f) {
  using L = layout_of<Shape, Layout>;
  const int thread = threadIdx.x;
#pragma unroll
  for (int i = 0; i < L::kCount; ++i) {
    const int e = L::index(thread, i);
    if (e < 0) continue;
    const std::int64_t at = element_at<Shape>(out, tile, e);
    if (at >= 0) out.data[at] = f.v[i];
  }
}

#endif  // __CUDACC__

}  // namespace carbide::tile::detail
