// The device vocabulary: views over device memory and the thread-index witnesses that reach
// them. nvcc compiles these for the GPU; a host compiler, clangd and the translator see the
// same declarations, whose device-only operations abort if a host program ever calls them.
#pragma once

#include <carbide/annotations.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#if !defined(__CUDACC__)
#include <cstdio>
#include <cstdlib>
#endif

#if defined(__CUDACC__)
// A contract's exact block: .reqntid where the target has it (sm_90 on), else the .maxntid
// upper bound. .reqntid cannot meet .maxntid, so the occupancy hint (min_blocks) becomes the
// register cap that __launch_bounds__(threads, min_blocks) would have implied.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define CARBIDE_EXACT_BLOCK(x, y, z) __launch_bounds__((x) * (y) * (z))
#define CARBIDE_EXACT_BLOCK_OCCUPANCY(x, y, z, min_blocks, max_registers) \
  __launch_bounds__((x) * (y) * (z), min_blocks)
#else
#define CARBIDE_EXACT_BLOCK(x, y, z) __block_size__((x, y, z))
#define CARBIDE_EXACT_BLOCK_OCCUPANCY(x, y, z, min_blocks, max_registers) \
  __block_size__((x, y, z)) __maxnreg__(max_registers)
#endif
#endif

namespace carbide {

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};

namespace detail {

#if defined(__CUDACC__)
[[noreturn]] __device__ __forceinline__ void fail_check() { __trap(); }
#else
[[noreturn]] inline void device_only(const char* what) {
  std::fprintf(stderr, "carbide: %s runs only on the device\n", what);
  std::abort();
}
#endif

// Only the host stubs build views: a kernel can never invent one.
struct view_access;

// Only the thread:: functions below make witnesses.
struct witness_factory {
  template <class Witness, class... Values>
  CARBIDE_DEVICE static Witness make(Values... values) {
    return Witness(values...);
  }
};

}  // namespace detail

namespace thread {

// A witness is the proof that an index belongs to the calling thread. It is made only by the
// functions below, and it cannot be copied, so it cannot be handed to another thread or kept.
class index_1d_witness {
 public:
  index_1d_witness(const index_1d_witness&) = delete;
  index_1d_witness& operator=(const index_1d_witness&) = delete;
  CARBIDE_DEVICE std::size_t get() const { return value_; }

 private:
  CARBIDE_DEVICE explicit index_1d_witness(std::size_t value) : value_(value) {}
  std::size_t value_;
  friend struct detail::witness_factory;
};

#if defined(__CUDACC__)
CARBIDE_DEVICE index_1d_witness index_1d() {
  return detail::witness_factory::make<index_1d_witness>(std::size_t(blockIdx.x) * blockDim.x +
                                                         threadIdx.x);
}
CARBIDE_DEVICE carbide::dim3 thread_idx() { return {threadIdx.x, threadIdx.y, threadIdx.z}; }
CARBIDE_DEVICE carbide::dim3 block_idx() { return {blockIdx.x, blockIdx.y, blockIdx.z}; }
CARBIDE_DEVICE carbide::dim3 block_dim() { return {blockDim.x, blockDim.y, blockDim.z}; }
CARBIDE_DEVICE carbide::dim3 grid_dim() { return {gridDim.x, gridDim.y, gridDim.z}; }
#else
CARBIDE_DEVICE index_1d_witness index_1d() { detail::device_only("carbide::thread::index_1d"); }
CARBIDE_DEVICE carbide::dim3 thread_idx() { detail::device_only("carbide::thread::thread_idx"); }
CARBIDE_DEVICE carbide::dim3 block_idx() { detail::device_only("carbide::thread::block_idx"); }
CARBIDE_DEVICE carbide::dim3 block_dim() { detail::device_only("carbide::thread::block_dim"); }
CARBIDE_DEVICE carbide::dim3 grid_dim() { detail::device_only("carbide::thread::grid_dim"); }
#endif

}  // namespace thread

// A read-only view shared by every thread. Indexing is bounds-checked: a checked build traps
// on an index past the end instead of reading another allocation.
// (span<T> of a non-const T is rejected by carbide-kernel-signature, with a fix-it.)
template <class T>
class span {
 public:
  using element_type = T;
  CARBIDE_HOST_DEVICE std::size_t size() const { return size_; }
  CARBIDE_HOST_DEVICE T* data() const { return data_; }
  CARBIDE_DEVICE T& operator[](std::size_t i) const {
#if defined(__CUDACC__)
#if defined(CARBIDE_CHECKED)
    if (i >= size_) detail::fail_check();
#endif
    return data_[i];
#else
    (void)i;
    detail::device_only("carbide::span::operator[]");
#endif
  }
  CARBIDE_HOST_DEVICE T* begin() const { return data_; }
  CARBIDE_HOST_DEVICE T* end() const { return data_ + size_; }

 private:
  friend struct detail::view_access;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// An exclusive output: each thread reaches only the element its own witness names.
template <class T>
class disjoint_span {
  static_assert(!std::is_const_v<T>, "a disjoint_span is an output: its element type is not const");

 public:
  using element_type = T;
  CARBIDE_HOST_DEVICE std::size_t size() const { return size_; }
  // nullptr when the thread's index is past the end, so the bounds test cannot be forgotten.
  CARBIDE_DEVICE T* get_mut(const thread::index_1d_witness& own) const {
    return own.get() < size_ ? data_ + own.get() : nullptr;
  }

 private:
  friend struct detail::view_access;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

namespace detail {
struct view_access {
  template <class View>
  static View make(typename View::element_type* data, std::size_t size) {
    View view;
    view.data_ = data;
    view.size_ = size;
    return view;
  }
};
}  // namespace detail

}  // namespace carbide
