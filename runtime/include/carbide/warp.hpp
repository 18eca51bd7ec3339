// Full-warp collectives: every lane of the warp must reach them (carbide-divergent-barrier).
#pragma once

#include <carbide/device.hpp>

namespace carbide::warp {

inline constexpr unsigned kFullMask = 0xffffffffu;

template <class T>
CARBIDE_DEVICE T shfl_down([[maybe_unused]] T value, [[maybe_unused]] unsigned delta) {
  CARBIDE_ON_DEVICE(return __shfl_down_sync(kFullMask, value, delta), "carbide::warp::shfl_down");
}

template <class T>
CARBIDE_DEVICE T shfl_up([[maybe_unused]] T value, [[maybe_unused]] unsigned delta) {
  CARBIDE_ON_DEVICE(return __shfl_up_sync(kFullMask, value, delta), "carbide::warp::shfl_up");
}

template <class T>
CARBIDE_DEVICE T shfl_xor([[maybe_unused]] T value, [[maybe_unused]] unsigned lane_mask) {
  CARBIDE_ON_DEVICE(return __shfl_xor_sync(kFullMask, value, lane_mask), "carbide::warp::shfl_xor");
}

// The sum over the warp, delivered to every lane.
template <class T>
CARBIDE_DEVICE T reduce_add(T value) {
  for (unsigned mask = 16; mask > 0; mask >>= 1) value += shfl_xor(value, mask);
  return value;
}

// The sum over lanes 0..lane, to each lane (an inclusive scan of the warp).
template <class T>
CARBIDE_DEVICE T inclusive_scan_add([[maybe_unused]] T value) {
#if defined(__CUDACC__)
  const unsigned lane = thread::flat_thread_index() & 31u;
  for (unsigned delta = 1; delta < 32; delta <<= 1) {
    const T below = shfl_up(value, delta);
    if (lane >= delta) value += below;
  }
  return value;
#else
  detail::device_only("carbide::warp::inclusive_scan_add");
#endif
}

CARBIDE_DEVICE unsigned ballot([[maybe_unused]] bool predicate) {
  CARBIDE_ON_DEVICE(return __ballot_sync(kFullMask, predicate), "carbide::warp::ballot");
}
CARBIDE_DEVICE bool any([[maybe_unused]] bool predicate) {
  CARBIDE_ON_DEVICE(return __any_sync(kFullMask, predicate) != 0, "carbide::warp::any");
}
CARBIDE_DEVICE bool all([[maybe_unused]] bool predicate) {
  CARBIDE_ON_DEVICE(return __all_sync(kFullMask, predicate) != 0, "carbide::warp::all");
}

}  // namespace carbide::warp
