// Reductions of a blocked register tile along its last axis, and the broadcast back.
//
// reduce_{sum,max,min}<Axis, Site, Repeated = true>(f): Axis must be the last axis. The result has the reduced
// layout: one value per slot of f's layout, replicated over every thread whose chunks of that
// slot lie in the same row, so bcast<Axis>(r, like) is register-local. How a row's chunks reach
// each other depends on how many threads share it (kChunksPerRow = last extent / Vec):
//   - a row within a group of kChunksPerRow ≤ 32 consecutive threads: shfl.xor butterflies;
//   - a row over more threads (whole warps): shfl.xor in each warp, then the warps' partials
//     through __shared__ scratch;
//   - a row longer than the block (several slots a thread): the thread's slots first, then all
//     warps as above.
// Site numbers the reduction in the kernel; each Site has its own scratch (a static __shared__
// array in its own template instance). A Repeated call (a site in a loop) brackets its scratch use
// with two barriers, so that it cannot overwrite partials another warp is still reading from the
// previous iteration; a site that runs once needs only the barrier between its writes and reads.
// The barriers sit in uniform control flow because tile kernels have no thread-dependent branches.
#pragma once

#include <carbide/tile/block.hpp>
#include <carbide/tile/elementwise.hpp>

#include <limits>
#include <type_traits>

namespace carbide::tile::detail {

// The operations: identity and combine, in the compute type C.
template <class C>
struct reduce_sum_op {
  static constexpr C kIdentity = C(0);
  static CARBIDE_TILE_HD C combine(C a, C b) { return a + b; }
};
template <class C>
struct reduce_max_op {
  static constexpr C kIdentity =
      std::numeric_limits<C>::has_infinity ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::lowest();
  static CARBIDE_TILE_HD C combine(C a, C b) { return b > a ? b : a; }
};
template <class C>
struct reduce_min_op {
  static constexpr C kIdentity =
      std::numeric_limits<C>::has_infinity ? std::numeric_limits<C>::infinity() : std::numeric_limits<C>::max();
  static CARBIDE_TILE_HD C combine(C a, C b) { return b < a ? b : a; }
};

// A reduction's result type: f's tile without its last axis, in the reduced layout.
template <int Axis, class T, class Shape, class Layout>
using reduced_frag_t = frag<T, remove_axis_t<Axis, Shape>, reduced<Layout, Shape::last()>>;

#if defined(__CUDACC__)

// The scratch of reduction site Site: Size values of C, in this block's shared memory.
template <int Site, class C, int Size>
CARBIDE_TILE_DEVICE C* reduction_scratch() {
  __shared__ C scratch[Size];
  return scratch;
}

// Combines each value over the lanes lane ^ d for d < Width (a power of two ≤ 32); afterwards
// every lane of each aligned group of Width lanes holds the group's result.
template <class Op, int Width, int N, class C>
CARBIDE_TILE_DEVICE void butterfly(C (&values)[N]) {
CARBIDE_TILE_UNROLL
  for (int d = Width / 2; d > 0; d /= 2)
CARBIDE_TILE_UNROLL
    for (int n = 0; n < N; ++n) values[n] = Op::combine(values[n], __shfl_xor_sync(0xffffffffu, values[n], d));
}

// values[n] (already combined within each warp) combined over the Span consecutive warps that
// hold the same row: through Site's scratch, one value per warp and n. A site that runs again
// (in a loop) first waits until every thread has read its previous values.
template <class Op, int Site, bool Repeated, int Warps, int Span, int N, class C>
CARBIDE_TILE_DEVICE void combine_warps(C (&values)[N]) {
  C* scratch = reduction_scratch<Site, C, N * Warps>();
  const int warp = threadIdx.x / 32, first = warp / Span * Span;
  if constexpr (Repeated) __syncthreads();
  if (threadIdx.x % 32 == 0)
CARBIDE_TILE_UNROLL
    for (int n = 0; n < N; ++n) scratch[n * Warps + warp] = values[n];
  __syncthreads();
CARBIDE_TILE_UNROLL
  for (int n = 0; n < N; ++n) {
    C total = scratch[n * Warps + first];
CARBIDE_TILE_UNROLL
    for (int w = 1; w < Span; ++w) total = Op::combine(total, scratch[n * Warps + first + w]);
    values[n] = total;
  }
}

template <template <class> class OpOf, int Axis, int Site, bool Repeated, class T, class Shape, int Threads, int Vec>
CARBIDE_TILE_DEVICE reduced_frag_t<Axis, T, Shape, blocked<Threads, Vec>> reduce(
    const frag<T, Shape, blocked<Threads, Vec>>& f) {
  static_assert(Axis == Shape::rank - 1, "reductions run along the last axis only");
  static_assert(Threads % 32 == 0, "reductions need whole warps");
  using L = layout_of<Shape, blocked<Threads, Vec>>;
  using C = compute_t<T>;
  using Op = OpOf<C>;
  constexpr int kChunksPerRow = L::kChunksPerRow, kWarps = Threads / 32;

  // Each slot's chunk folded to one value (the identity for a slot this thread lacks).
  C slot_values[L::kSlots];
CARBIDE_TILE_UNROLL
  for (int s = 0; s < L::kSlots; ++s) {
    slot_values[s] = Op::kIdentity;
    if (L::kRagged && s * Threads + int(threadIdx.x) >= L::kChunks) continue;
CARBIDE_TILE_UNROLL
    for (int j = 0; j < Vec; ++j) slot_values[s] = Op::combine(slot_values[s], convert<C>(f.v[s * Vec + j]));
  }

  reduced_frag_t<Axis, T, Shape, blocked<Threads, Vec>> r;
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
    for (int s = 0; s < L::kSlots; ++s) r.v[s] = convert<T>(slot_values[s]);
  } else {
    static_assert(kChunksPerRow % Threads == 0, "a row's chunks: a multiple of the threads, or a divisor");
    constexpr int kSlotsPerRow = kChunksPerRow / Threads, kRows = L::kSlots / kSlotsPerRow;
    C row_values[kRows];
CARBIDE_TILE_UNROLL
    for (int row = 0; row < kRows; ++row) {
      row_values[row] = slot_values[row * kSlotsPerRow];
CARBIDE_TILE_UNROLL
      for (int s = 1; s < kSlotsPerRow; ++s) row_values[row] = Op::combine(row_values[row], slot_values[row * kSlotsPerRow + s]);
    }
    butterfly<Op, 32>(row_values);
    if constexpr (kWarps > 1) combine_warps<Op, Site, Repeated, kWarps, kWarps>(row_values);
CARBIDE_TILE_UNROLL
    for (int s = 0; s < L::kSlots; ++s) r.v[s] = convert<T>(row_values[s / kSlotsPerRow]);
  }
  return r;
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

// A reduced value re-expanded along Axis to `like`'s shape and layout: each slot's row value
// copied into the slot's Vec elements, in registers.
template <int Axis, class T, class ReducedShape, class Blocked, int Last, class U, class Shape>
CARBIDE_TILE_HD frag<T, Shape, Blocked> bcast(const frag<T, ReducedShape, reduced<Blocked, Last>>& r,
                                              const frag<U, Shape, Blocked>& /*like*/) {
  static_assert(Axis == Shape::rank - 1 && extents<Shape>::at(Axis) == Last, "bcast re-inserts the reduced last axis");
  static_assert(std::is_same_v<ReducedShape, remove_axis_t<Axis, Shape>>, "bcast to the shape that was reduced");
  frag<T, Shape, Blocked> f;
CARBIDE_TILE_UNROLL
  for (int i = 0; i < f.kCount; ++i) f.v[i] = r.v[i / Blocked::kVec];
  return f;
}

#endif  // __CUDACC__

}  // namespace carbide::tile::detail
