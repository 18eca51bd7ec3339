// Block-level vocabulary: shared memory and the barrier.
#pragma once

#include <carbide/device.hpp>

namespace carbide {

// The extent of the dynamic shared array: the contract's dynamic_shared bytes, known at launch.
inline constexpr std::size_t dynamic_extent = static_cast<std::size_t>(-1);

namespace detail {
template <class T, std::size_t N, unsigned Site>
struct shared_storage;
struct dynamic_shared_storage;

// The own-slot index, proven in range like any other (in_range_index: device.hpp).
CARBIDE_DEVICE in_range_index in_range(const thread::local_index_witness& own) {
  return {own.get()};
}

template <std::size_t N>
class extent_holder {
 public:
  CARBIDE_DEVICE static constexpr std::size_t size() { return N; }
};
template <>
class extent_holder<dynamic_extent> {
 public:
  CARBIDE_DEVICE std::size_t size() const { return size_; }

 protected:
  std::size_t size_ = 0;
};
}  // namespace detail

// A handle to block-shared storage of N elements of T (N = dynamic_extent: the launch's dynamic
// shared memory). Indexing with any expression is allowed and analysed by carbide-shared-race;
// indexing with the local witness is the own-slot form. fetch_add is an atomic add that any
// thread may do on any slot.
template <class T, std::size_t N>
class shared_array : public detail::extent_holder<N> {
 public:
  using detail::extent_holder<N>::size;
  CARBIDE_DEVICE T& operator[](std::size_t i) const {
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (i >= size()) detail::fail_check();
#elif !defined(__CUDACC__)
    if (i >= size()) cpu::detail::index_past_end(data_, i, size());
#endif
    return data_[i];
  }
  CARBIDE_DEVICE T& operator[](const thread::local_index_witness& own) const {
    return (*this)[own.get()];
  }
#if defined(__CUDACC__)
  CARBIDE_DEVICE T& operator[](detail::in_range_index i) const { return data_[i.value]; }
  CARBIDE_DEVICE T fetch_add(std::size_t i, T value) const { return atomicAdd(&(*this)[i], value); }
  CARBIDE_DEVICE T fetch_add(detail::in_range_index i, T value) const { return atomicAdd(&(*this)[i], value); }
#else
  // The CPU checks a proven index too: a wrong proof is the translator's bug, reported, not run.
  CARBIDE_DEVICE T& operator[](detail::in_range_index i) const { return (*this)[i.value]; }
  CARBIDE_DEVICE T fetch_add(std::size_t i, T value) const {
    if constexpr (cpu::detail::has_atomics<T>) return cpu::detail::atomic_fetch_add(&(*this)[i], value);
    else cpu::detail::unsupported_atomic("carbide::shared_array::fetch_add", sizeof(T));
  }
  CARBIDE_DEVICE T fetch_add(detail::in_range_index i, T value) const { return fetch_add(i.value, value); }
#endif

 private:
  template <class, std::size_t, unsigned>
  friend struct detail::shared_storage;
  friend struct detail::dynamic_shared_storage;
  CARBIDE_DEVICE explicit shared_array(T* data) : data_(data) {}
  T* data_;
};

namespace detail {
// One array per call site: the translator numbers each block::shared call in device code.
template <class T, std::size_t N, unsigned Site>
struct shared_storage {
  CARBIDE_DEVICE static shared_array<T, N> get() {
#if defined(__CUDACC__)
    // 16-byte aligned whatever T is, so that the compiler may read four floats at once.
    __shared__ __align__(16) T storage[N];
    return shared_array<T, N>(storage);
#else
    return shared_array<T, N>(static_cast<T*>(cpu::detail::shared_storage(Site, sizeof(T) * N)));
#endif
  }
};

struct dynamic_shared_storage {
  template <class T>
  CARBIDE_DEVICE static shared_array<T, dynamic_extent> get() {
#if defined(__CUDACC__)
    extern __shared__ __align__(16) unsigned char carbide_dynamic_shared[];
    unsigned bytes;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
    shared_array<T, dynamic_extent> array(reinterpret_cast<T*>(carbide_dynamic_shared));
    array.size_ = bytes / sizeof(T);
    return array;
#else
    std::size_t bytes = 0;
    shared_array<T, dynamic_extent> array(static_cast<T*>(cpu::detail::dynamic_shared_storage(&bytes)));
    array.size_ = bytes / sizeof(T);
    return array;
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
// Only the user's own file calls this, never running it: the CPU form calls shared_at too.
template <class T, std::size_t N>
CARBIDE_DEVICE shared_array<T, N> shared() {
  detail::device_only("carbide::block::shared without its site number (shared_at)");
}
#endif

template <class T, std::size_t N, unsigned Site>
CARBIDE_DEVICE shared_array<T, N> shared_at() {
  return detail::shared_storage<T, N, Site>::get();
}

// The launch's dynamic shared memory (the contract's dynamic_shared bytes) as an array of T.
// Every call returns the same memory: carbide-shared-race treats all of a kernel's dynamic
// handles as one array.
template <class T>
CARBIDE_DEVICE shared_array<T, dynamic_extent> dynamic_shared() {
  return detail::dynamic_shared_storage::get<T>();
}

// The barrier: only in control flow every thread of the block reaches (carbide-divergent-barrier).
#if defined(__CUDACC__)
CARBIDE_DEVICE void sync() { __syncthreads(); }
#else
CARBIDE_DEVICE void sync() { cpu::detail::sync(); }
#endif

}  // namespace block
}  // namespace carbide
