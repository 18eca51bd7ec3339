// Block-level vocabulary: shared memory and the barrier.
#pragma once

#include <carbide/device.hpp>

namespace carbide {

namespace detail {
template <class T, std::size_t N, unsigned Site>
struct shared_storage;
}  // namespace detail

// A handle to block-shared storage of N elements of T. Indexing with any expression is allowed
// and analysed by carbide-shared-race; indexing with the local witness is the own-slot form.
template <class T, std::size_t N>
class shared_array {
 public:
  static constexpr std::size_t size() { return N; }
  CARBIDE_DEVICE T& operator[](std::size_t i) const {
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (i >= N) detail::fail_check();
#endif
    return data_[i];
  }
  CARBIDE_DEVICE T& operator[](const thread::local_index_witness& own) const {
    return (*this)[own.get()];
  }

 private:
  template <class, std::size_t, unsigned>
  friend struct detail::shared_storage;
  CARBIDE_DEVICE explicit shared_array(T* data) : data_(data) {}
  T* data_;
};

namespace detail {
// One array per call site: the translator numbers each block::shared call in device code.
template <class T, std::size_t N, unsigned Site>
struct shared_storage {
  CARBIDE_DEVICE static shared_array<T, N> get() {
#if defined(__CUDACC__)
    __shared__ T storage[N];
    return shared_array<T, N>(storage);
#else
    device_only("carbide::block::shared");
#endif
  }
};
}  // namespace detail

namespace block {

// Block-shared storage; each call site is its own array. The translator rewrites every call in
// device code to name its site (shared_at<T, N, Site>); nvcc never sees an unnumbered one.
#if defined(__CUDACC__)
template <class T, std::size_t N>
shared_array<T, N> shared() = delete;
#else
template <class T, std::size_t N>
CARBIDE_DEVICE shared_array<T, N> shared() {
  detail::device_only("carbide::block::shared");
}
#endif

template <class T, std::size_t N, unsigned Site>
CARBIDE_DEVICE shared_array<T, N> shared_at() {
  return detail::shared_storage<T, N, Site>::get();
}

// The barrier: only in control flow every thread of the block reaches (carbide-divergent-barrier).
CARBIDE_DEVICE void sync() { CARBIDE_ON_DEVICE(__syncthreads(), "carbide::block::sync"); }

}  // namespace block
}  // namespace carbide
