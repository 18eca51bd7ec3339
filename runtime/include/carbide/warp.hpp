// Full-warp collectives: every lane of the warp must reach them (carbide-divergent-barrier).
#pragma once

#include <carbide/device.hpp>

namespace carbide::warp {

inline constexpr unsigned kFullMask = 0xffffffffu;

// On the CPU the warp's lanes meet in the engine, which hands each lane the value it asks for
// (its own where the lane it names lies outside the warp).
#if defined(__CUDACC__)
template <class T>
CARBIDE_DEVICE T shfl_down(T value, unsigned delta) {
  return __shfl_down_sync(kFullMask, value, delta);
}

template <class T>
CARBIDE_DEVICE T shfl_up(T value, unsigned delta) {
  return __shfl_up_sync(kFullMask, value, delta);
}

template <class T>
CARBIDE_DEVICE T shfl_xor(T value, unsigned lane_mask) {
  return __shfl_xor_sync(kFullMask, value, lane_mask);
}

template <class T>
CARBIDE_DEVICE T shfl(T value, unsigned src_lane) {
  return __shfl_sync(kFullMask, value, src_lane);
}
#else
template <class T>
CARBIDE_DEVICE T shfl_down(T value, unsigned delta) {
  cpu::detail::shuffle(cpu::detail::Shuffle::Down, &value, sizeof value, delta);
  return value;
}

template <class T>
CARBIDE_DEVICE T shfl_up(T value, unsigned delta) {
  cpu::detail::shuffle(cpu::detail::Shuffle::Up, &value, sizeof value, delta);
  return value;
}

template <class T>
CARBIDE_DEVICE T shfl_xor(T value, unsigned lane_mask) {
  cpu::detail::shuffle(cpu::detail::Shuffle::Xor, &value, sizeof value, lane_mask);
  return value;
}

template <class T>
CARBIDE_DEVICE T shfl(T value, unsigned src_lane) {
  cpu::detail::shuffle(cpu::detail::Shuffle::Index, &value, sizeof value, src_lane);
  return value;
}
#endif

// Lane `Lane`'s value, to every lane (CUDA's __shfl_sync(mask, v, Lane)). The lane is a constant,
// so the result is the same across the warp, and the checker knows it; shfl(value, src_lane)
// reads a lane that may differ per thread.
template <unsigned Lane = 0, class T>
CARBIDE_DEVICE T broadcast(T value) {
  static_assert(Lane < 32, "a warp has lanes 0 to 31");
  return shfl(value, Lane);
}

// The sum over the warp, delivered to every lane.
template <class T>
CARBIDE_DEVICE T reduce_add(T value) {
  for (unsigned mask = 16; mask > 0; mask >>= 1) value += shfl_xor(value, mask);
  return value;
}

// The largest and the smallest value over the warp, delivered to every lane (for floats, a NaN
// loses to a number, as in fmaxf and fminf).
template <class T>
CARBIDE_DEVICE T reduce_max(T value) {
  for (unsigned mask = 16; mask > 0; mask >>= 1) {
    const T other = shfl_xor(value, mask);
    if constexpr (std::is_floating_point_v<T>) value = value != value || other > value ? other : value;
    else value = other > value ? other : value;
  }
  return value;
}

template <class T>
CARBIDE_DEVICE T reduce_min(T value) {
  for (unsigned mask = 16; mask > 0; mask >>= 1) {
    const T other = shfl_xor(value, mask);
    if constexpr (std::is_floating_point_v<T>) value = value != value || other < value ? other : value;
    else value = other < value ? other : value;
  }
  return value;
}

// `op` folded over the warp's values, delivered to every lane: each step combines the lower
// half's value with the upper half's, in that order, so every lane computes the same bracketing
// and gets the same result even where `op` is not commutative (it must be associative for that
// result to be the fold). `op` is a lambda without captures that computes from its two values
// alone, which carbide-device-unsupported holds: `warp::reduce(v, [](float a, float b) { … })`.
template <class T, class Op>
CARBIDE_DEVICE T reduce(T value, Op op) {
  const unsigned lane = detail::lane_of_thread("carbide::warp::reduce");
  for (unsigned mask = 16; mask > 0; mask >>= 1) {
    const T other = shfl_xor(value, mask);
    value = (lane & mask) != 0 ? op(other, value) : op(value, other);
  }
  return value;
}

// The sum over lanes 0..lane, to each lane (an inclusive scan of the warp).
template <class T>
CARBIDE_DEVICE T inclusive_scan_add(T value) {
  const unsigned lane = detail::lane_of_thread("carbide::warp::inclusive_scan_add");
  for (unsigned delta = 1; delta < 32; delta <<= 1) {
    const T below = shfl_up(value, delta);
    if (lane >= delta) value += below;
  }
  return value;
}

#if defined(__CUDACC__)
CARBIDE_DEVICE unsigned ballot(bool predicate) { return __ballot_sync(kFullMask, predicate); }
CARBIDE_DEVICE bool any(bool predicate) { return __any_sync(kFullMask, predicate) != 0; }
CARBIDE_DEVICE bool all(bool predicate) { return __all_sync(kFullMask, predicate) != 0; }
#else
// In a partial last warp, the lanes that exist: ballot sets their bits only, all asks only them.
CARBIDE_DEVICE unsigned ballot(bool predicate) { return cpu::detail::vote(cpu::detail::Vote::Ballot, predicate); }
CARBIDE_DEVICE bool any(bool predicate) { return cpu::detail::vote(cpu::detail::Vote::Any, predicate) != 0; }
CARBIDE_DEVICE bool all(bool predicate) { return cpu::detail::vote(cpu::detail::Vote::All, predicate) != 0; }
#endif

}  // namespace carbide::warp
