// The device vocabulary: views over device memory and the thread-index witnesses that reach
// them. nvcc compiles these for the GPU; a host compiler, clangd and the translator see the
// same declarations, whose host forms run a kernel's CPU form inside a CPU launch
// (<carbide/cpu_vocabulary.hpp>, DESIGN §11) and stop the program anywhere else.
#pragma once

#include <carbide/annotations.hpp>
#include <carbide/cuda_idioms.hpp>
#include <carbide/cuda_vector_types.hpp>
#include <carbide/tile/types.hpp>  // ct::bf16 and ct::f16, elements of views as of tiles

#include <cstddef>
#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#include <cassert>  // declares __assert_fail, which CARBIDE_REQUIRE's failure calls, for nvcc's host pass
#else
#include <carbide/cpu_vocabulary.hpp>

#include <cstdio>
#include <cstdlib>
#endif

namespace carbide {

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};

namespace detail {

#if defined(__CUDACC__)
[[noreturn]] __device__ __forceinline__ void fail_check() { __trap(); }
#else
[[noreturn]] inline void device_only(const char* what) { cpu::detail::outside_launch(what); }
#endif

// An index into K elements a thread holds (a C array, a vec), checked as a view's index is: on
// the CPU always, on the GPU in a checked build. Past the end lie the thread's other locals.
template <class Index>
CARBIDE_HOST_DEVICE constexpr void check_element_index([[maybe_unused]] Index i, [[maybe_unused]] std::size_t count,
                                                       [[maybe_unused]] const char* what) {
#if defined(__CUDA_ARCH__)
#if defined(CARBIDE_CHECKED)
  if (static_cast<unsigned long long>(i) >= count) __trap();
#endif
#elif !defined(__CUDACC__)
  if (static_cast<unsigned long long>(i) >= count)
    cpu::detail::piece_index_past_end(what, static_cast<long long>(i), static_cast<long long>(count));
#endif
}

// A subscript of a fixed-size C array that the translator did not prove inside it, as generated
// code writes it: `checked(acc, "the array 'acc'")[j]` for `acc[j]`. A C array has no check of its
// own (analysis/array_indexes).
template <class T, std::size_t N>
struct checked_array {
  T (&elements)[N];
  const char* what;
  template <class Index>
  CARBIDE_HOST_DEVICE constexpr T& operator[](Index i) const {
    check_element_index(i, N, what);
    return elements[i];
  }
};
template <class T, std::size_t N>
CARBIDE_HOST_DEVICE constexpr checked_array<T, N> checked(T (&elements)[N], const char* what) {
  return {elements, what};
}

}  // namespace detail

// What CARBIDE_REQUIRE calls when its condition is false: a device-side assertion, which stops
// the launch (the driver reports CUDA_ERROR_ASSERT) and prints the condition with its line.
#if defined(__CUDACC__)
[[noreturn]] __device__ __forceinline__ void requirement_failed(const char* condition, const char* file,
                                                                unsigned line, const char* function) {
  __assert_fail(condition, file, line, function);  // what CUDA's device assert calls on Linux
  __trap();  // not reached: the assertion stops the launch
}
#else
// Inside a CPU launch the launch fails with a KernelError, as the device's assertion fails it.
[[noreturn]] inline void requirement_failed(const char* condition, const char* file, unsigned line,
                                            const char* function) {
  if (cpu::detail::current_thread() != nullptr) cpu::detail::requirement_failed(condition, file, line, function);
  std::fprintf(stderr, "%s:%u: %s: requirement failed: %s\n", file, line, function, condition);
  std::abort();
}
#endif

namespace detail {

// An element of a non-empty view: its allocation is never at address 0. Saying so lets
// `if (T* e = view.get_mut(w))` test only the index, as hand-written code does.
template <class T>
CARBIDE_HOST_DEVICE T* non_null(T* element) {
#if defined(__CUDACC__)
  __builtin_assume(element != nullptr);
#endif
  return element;
}

// a · b into *product, unless it does not fit in 64 bits.
CARBIDE_HOST_DEVICE bool product_fits(std::size_t a, std::size_t b, std::size_t* product) {
#if defined(__CUDA_ARCH__)
  *product = a * b;
  return __umul64hi((unsigned long long)a, (unsigned long long)b) == 0;
#else
  return !__builtin_mul_overflow(a, b, product);
#endif
}

// The element types __ldg loads (and __ldcs and __stcs load and store).
template <class T>
inline constexpr bool has_read_only_load =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int> ||
    std::is_same_v<T, unsigned> || std::is_same_v<T, long long> ||
    std::is_same_v<T, unsigned long long> || std::is_same_v<T, short> ||
    std::is_same_v<T, unsigned short> || std::is_same_v<T, signed char> ||
    std::is_same_v<T, unsigned char> || std::is_same_v<T, char> || std::is_same_v<T, long> ||
    std::is_same_v<T, unsigned long> || is_cuda_vector_type<T>;

// Loops over a vec's elements unroll, so its values stay in registers (host compilers do not
// know the pragma).
#if defined(__CUDACC__)
#define CARBIDE_UNROLL _Pragma("unroll")
#else
#define CARBIDE_UNROLL
#endif

#if defined(__CUDACC__)
// The block's place in its grid, x fastest, as the leader and region forms number blocks.
CARBIDE_DEVICE std::size_t flat_block_index() {
  return (std::size_t(blockIdx.z) * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
}

// A launch contract's block shape, told to the compiler at the top of the kernel's entry point.
// Sound: prepare() refuses any other block before a launch, and the entry's PTX says .reqntid
// X, Y, Z, so the driver refuses one too. It turns blockDim into constants: divisions by the
// block become shifts, 64-bit products of blockDim narrow, and the compiler proves shared indexes
// the translator could not (bench/results/2026-12-03-walsh-piece-kernel.md).
template <unsigned X, unsigned Y, unsigned Z>
CARBIDE_DEVICE void assume_thread_indexes() {
  __builtin_assume(threadIdx.x < X);
  __builtin_assume(threadIdx.y < Y);
  __builtin_assume(threadIdx.z < Z);
}

template <unsigned X, unsigned Y, unsigned Z>
CARBIDE_DEVICE void assume_block_shape() {
  __builtin_assume(blockDim.x == X);
  __builtin_assume(blockDim.y == Y);
  __builtin_assume(blockDim.z == Z);
  assume_thread_indexes<X, Y, Z>();
}
#endif

// An index the translator proved inside its view or shared array for every thread of every
// launch the kernel allows (analysis/proven_subscripts, analysis/proven_span_reads); only
// generated code makes one, and subscripts taking it skip the bounds check.
struct in_range_index {
  std::size_t value;
};
CARBIDE_DEVICE in_range_index in_range(std::size_t i) { return {i}; }

// Only the host stubs build views: a kernel can never invent one.
struct view_access;

// Only the thread:: functions below make witnesses.
struct witness_factory {
  template <class Witness, class... Values>
  CARBIDE_DEVICE static Witness make(Values... values) {
    return Witness(values...);
  }
};

// One axis of a halo witness: the thread's position and whether it is inside the halo.
CARBIDE_DEVICE std::ptrdiff_t halo_position(unsigned block, unsigned extent, unsigned thread, unsigned radius) {
  return std::ptrdiff_t(block) * (std::ptrdiff_t(extent) - 2 * std::ptrdiff_t(radius)) + thread - radius;
}
CARBIDE_DEVICE bool halo_inner(unsigned extent, unsigned thread, unsigned radius) {
  return thread >= radius && thread + radius < extent;
}

}  // namespace detail

// The order in which the blocks of a grid take their indexes. Each order is a permutation of the
// blocks, so every index still has exactly one owner and every form that takes the natural
// witness takes it.
// - 1-D (thread::index_1d<Order>()): block b of G gets b (natural) or G − 1 − b (reversed), a
//   cache trick: a kernel that follows another starts on the data the other wrote last, which is
//   still in L2.
// - 2-D (thread::index_2d<Order>()): natural, or grouped<R>: the launch's blocks, taken in launch
//   order (row-major), fill R block rows at a time column by column, as the tile GEMM's
//   rasterization does (Triton's grouped ordering): blocks that run together share the rows of A
//   and the columns of B they read, in L2. The last group has the rows that are left.
namespace block_order {
struct natural {};
struct reversed {};
template <unsigned Rows>
struct grouped {
  static_assert(Rows > 0, "carbide::block_order::grouped<R> takes R block rows at a time, R > 0");
};
template <class Order>
CARBIDE_HOST_DEVICE unsigned place(unsigned block, unsigned blocks) {
  static_assert(std::is_same_v<Order, natural> || std::is_same_v<Order, reversed>,
                "a block order of a 1-D grid is carbide::block_order::natural or carbide::block_order::reversed");
  return std::is_same_v<Order, reversed> ? blocks - 1 - block : block;
}

// A block's place in a 2-D grid of grid_x × grid_y blocks.
struct place_2d {
  unsigned x, y;
};
template <class Order>
struct order_2d {
  static_assert(std::is_same_v<Order, natural>,
                "a block order of a 2-D grid is carbide::block_order::natural or carbide::block_order::grouped<R>");
  CARBIDE_HOST_DEVICE static place_2d place(unsigned x, unsigned y, unsigned, unsigned) { return {x, y}; }
};
template <unsigned Rows>
struct order_2d<grouped<Rows>> {
  CARBIDE_HOST_DEVICE static place_2d place(unsigned x, unsigned y, unsigned grid_x, unsigned grid_y) {
    const unsigned long long launched = static_cast<unsigned long long>(y) * grid_x + x;
    const unsigned long long group_blocks = static_cast<unsigned long long>(Rows) * grid_x;
    const unsigned first_row = static_cast<unsigned>(launched / group_blocks) * Rows;
    const unsigned rows = grid_y - first_row < Rows ? grid_y - first_row : Rows;
    const unsigned long long within = launched % group_blocks;  // < rows × grid_x
    return {static_cast<unsigned>(within / rows), first_row + static_cast<unsigned>(within % rows)};
  }
};
}  // namespace block_order

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

class index_2d_witness {
 public:
  index_2d_witness(const index_2d_witness&) = delete;
  index_2d_witness& operator=(const index_2d_witness&) = delete;
  CARBIDE_DEVICE std::size_t row() const { return row_; }  // along y
  CARBIDE_DEVICE std::size_t col() const { return col_; }  // along x

 private:
  CARBIDE_DEVICE index_2d_witness(std::size_t row, std::size_t col) : row_(row), col_(col) {}
  std::size_t row_, col_;
  friend struct detail::witness_factory;
};

// The global 2-D index of a thread whose block stands at its transposed coordinates: block
// (bx, by) takes the place of block (by, bx), so row() is bx·block_dim().y + ty and col() is
// by·block_dim().x + tx. A transpose reads the input tile at the block's own coordinates and
// writes the output tile at these. A type of its own, so that the translator sees every view it
// claims, also inside helpers, and the launch can check that the grid is the output's tile grid
// transposed (thread::index_2d_transposed()).
class index_2d_transposed_witness {
 public:
  index_2d_transposed_witness(const index_2d_transposed_witness&) = delete;
  index_2d_transposed_witness& operator=(const index_2d_transposed_witness&) = delete;
  CARBIDE_DEVICE std::size_t row() const { return row_; }  // along y, blocks counted along x
  CARBIDE_DEVICE std::size_t col() const { return col_; }  // along x, blocks counted along y

 private:
  CARBIDE_DEVICE index_2d_transposed_witness(std::size_t row, std::size_t col) : row_(row), col_(col) {}
  std::size_t row_, col_;
  friend struct detail::witness_factory;
};

// The position of a thread whose block overlaps its neighbours' by a halo of Radius elements on
// each side: a tiled stencil or convolution that loads the block's whole input tile, halo
// included, one element a thread (thread::index_1d_halo<R>()). Block b stands at
// b·(block_dim().x − 2·Radius) − Radius, so get() is where the thread loads; the block owns the
// block_dim().x − 2·Radius outputs its inner threads stand on, and the Radius threads at each
// end, the halo, own none: inner() is false and get_mut gives them nullptr. No two blocks' inner
// threads stand on one position. Radius is a template argument, one value for the whole launch,
// since blocks with different halos would overlap.
template <unsigned Radius>
class index_1d_halo_witness {
 public:
  index_1d_halo_witness(const index_1d_halo_witness&) = delete;
  index_1d_halo_witness& operator=(const index_1d_halo_witness&) = delete;
  CARBIDE_DEVICE std::ptrdiff_t get() const { return value_; }  // −Radius for block 0's first thread
  CARBIDE_DEVICE bool inner() const { return inner_; }

 private:
  CARBIDE_DEVICE index_1d_halo_witness(std::ptrdiff_t value, bool inner) : value_(value), inner_(inner) {}
  std::ptrdiff_t value_;
  bool inner_;
  friend struct detail::witness_factory;
};

// index_1d_halo_witness along both axes (thread::index_2d_halo<R>()): block (bx, by) stands at
// row by·(block_dim().y − 2·Radius) − Radius, column bx·(block_dim().x − 2·Radius) − Radius.
template <unsigned Radius>
class index_2d_halo_witness {
 public:
  index_2d_halo_witness(const index_2d_halo_witness&) = delete;
  index_2d_halo_witness& operator=(const index_2d_halo_witness&) = delete;
  CARBIDE_DEVICE std::ptrdiff_t row() const { return row_; }  // along y
  CARBIDE_DEVICE std::ptrdiff_t col() const { return col_; }  // along x
  CARBIDE_DEVICE bool inner() const { return inner_; }

 private:
  CARBIDE_DEVICE index_2d_halo_witness(std::ptrdiff_t row, std::ptrdiff_t col, bool inner)
      : row_(row), col_(col), inner_(inner) {}
  std::ptrdiff_t row_, col_;
  bool inner_;
  friend struct detail::witness_factory;
};

// One index a block owns in a block-stride loop (block::grid_stride(count)): b, b + G, b + 2G, …
// for block b of G (blocks counted x fastest), the same for all its threads. No two blocks own
// one index, so the leader and region forms take it in place of the block's own number
// (`out.get_mut_block(lid, row)`): one block per row, rows dealt out over the grid.
class block_index_witness {
 public:
  block_index_witness(const block_index_witness&) = delete;
  block_index_witness& operator=(const block_index_witness&) = delete;
  CARBIDE_DEVICE std::size_t get() const { return value_; }

 private:
  CARBIDE_DEVICE explicit block_index_witness(std::size_t value) : value_(value) {}
  std::size_t value_;
  friend struct detail::witness_factory;
};

// The flat block-local index: ty * block_dim().x + tx (and tz for 3-D blocks).
class local_index_witness {
 public:
  local_index_witness(const local_index_witness&) = delete;
  local_index_witness& operator=(const local_index_witness&) = delete;
  CARBIDE_DEVICE unsigned get() const { return value_; }

 private:
  CARBIDE_DEVICE explicit local_index_witness(unsigned value) : value_(value) {}
  unsigned value_;
  friend struct detail::witness_factory;
};

// The thread's lane in its warp, 0-31.
class lane_witness {
 public:
  lane_witness(const lane_witness&) = delete;
  lane_witness& operator=(const lane_witness&) = delete;
  CARBIDE_DEVICE unsigned get() const { return value_; }

 private:
  CARBIDE_DEVICE explicit lane_witness(unsigned value) : value_(value) {}
  unsigned value_;
  friend struct detail::witness_factory;
};

// The thread's warp, numbered across a 1-D grid (thread::warp_index_1d()): warp w of block b is
// number b·W + w, where W = ⌈threads per block / 32⌉ and w is the warp's place in its block (the
// flat local index / 32, as the hardware forms warps). Every lane of a warp holds the same number
// and no two warps of the launch share one, so the warp forms (get_mut_warp_row,
// get_mut_warp_leader) give each warp a row of its own.
class warp_index_witness {
 public:
  warp_index_witness(const warp_index_witness&) = delete;
  warp_index_witness& operator=(const warp_index_witness&) = delete;
  CARBIDE_DEVICE std::size_t get() const { return value_; }

 private:
  CARBIDE_DEVICE explicit warp_index_witness(std::size_t value) : value_(value) {}
  std::size_t value_;
  friend struct detail::witness_factory;
};

#if defined(__CUDACC__)
CARBIDE_DEVICE unsigned flat_thread_index() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
template <class Order = block_order::natural>
CARBIDE_DEVICE index_1d_witness index_1d() {
  return detail::witness_factory::make<index_1d_witness>(
      std::size_t(block_order::place<Order>(blockIdx.x, gridDim.x)) * blockDim.x + threadIdx.x);
}
template <class Order = block_order::natural>
CARBIDE_DEVICE index_2d_witness index_2d() {
  const block_order::place_2d block = block_order::order_2d<Order>::place(blockIdx.x, blockIdx.y, gridDim.x, gridDim.y);
  return detail::witness_factory::make<index_2d_witness>(std::size_t(block.y) * blockDim.y + threadIdx.y,
                                                         std::size_t(block.x) * blockDim.x + threadIdx.x);
}
CARBIDE_DEVICE index_2d_transposed_witness index_2d_transposed() {
  return detail::witness_factory::make<index_2d_transposed_witness>(
      std::size_t(blockIdx.x) * blockDim.y + threadIdx.y,
      std::size_t(blockIdx.y) * blockDim.x + threadIdx.x);
}
CARBIDE_DEVICE local_index_witness local_index() {
  return detail::witness_factory::make<local_index_witness>(flat_thread_index());
}
template <unsigned Radius>
CARBIDE_DEVICE index_1d_halo_witness<Radius> index_1d_halo() {
  return detail::witness_factory::make<index_1d_halo_witness<Radius>>(
      detail::halo_position(blockIdx.x, blockDim.x, threadIdx.x, Radius), detail::halo_inner(blockDim.x, threadIdx.x, Radius));
}
template <unsigned Radius>
CARBIDE_DEVICE index_2d_halo_witness<Radius> index_2d_halo() {
  return detail::witness_factory::make<index_2d_halo_witness<Radius>>(
      detail::halo_position(blockIdx.y, blockDim.y, threadIdx.y, Radius),
      detail::halo_position(blockIdx.x, blockDim.x, threadIdx.x, Radius),
      detail::halo_inner(blockDim.y, threadIdx.y, Radius) && detail::halo_inner(blockDim.x, threadIdx.x, Radius));
}

CARBIDE_DEVICE lane_witness lane() {
  return detail::witness_factory::make<lane_witness>(flat_thread_index() & 31u);
}
CARBIDE_DEVICE warp_index_witness warp_index_1d() {
  const unsigned warps_per_block = (blockDim.x * blockDim.y * blockDim.z + 31u) / 32u;
  return detail::witness_factory::make<warp_index_witness>(std::size_t(blockIdx.x) * warps_per_block +
                                                           flat_thread_index() / 32u);
}
CARBIDE_DEVICE carbide::dim3 thread_idx() { return {threadIdx.x, threadIdx.y, threadIdx.z}; }
CARBIDE_DEVICE carbide::dim3 block_idx() { return {blockIdx.x, blockIdx.y, blockIdx.z}; }
CARBIDE_DEVICE carbide::dim3 block_dim() { return {blockDim.x, blockDim.y, blockDim.z}; }
CARBIDE_DEVICE carbide::dim3 grid_dim() { return {gridDim.x, gridDim.y, gridDim.z}; }
#else
// The CPU forms read the engine's current thread (cpu::detail::current_thread()).
template <class Order = block_order::natural>
CARBIDE_DEVICE index_1d_witness index_1d() {
  const auto& t = cpu::detail::this_thread("carbide::thread::index_1d");
  return detail::witness_factory::make<index_1d_witness>(
      std::size_t(block_order::place<Order>(t.block_idx.x, t.grid_dim.x)) * t.block_dim.x + t.thread_idx.x);
}
template <class Order = block_order::natural>
CARBIDE_DEVICE index_2d_witness index_2d() {
  const auto& t = cpu::detail::this_thread("carbide::thread::index_2d");
  const block_order::place_2d block =
      block_order::order_2d<Order>::place(t.block_idx.x, t.block_idx.y, t.grid_dim.x, t.grid_dim.y);
  return detail::witness_factory::make<index_2d_witness>(std::size_t(block.y) * t.block_dim.y + t.thread_idx.y,
                                                         std::size_t(block.x) * t.block_dim.x + t.thread_idx.x);
}
CARBIDE_DEVICE index_2d_transposed_witness index_2d_transposed() {
  const auto& t = cpu::detail::this_thread("carbide::thread::index_2d_transposed");
  return detail::witness_factory::make<index_2d_transposed_witness>(
      std::size_t(t.block_idx.x) * t.block_dim.y + t.thread_idx.y,
      std::size_t(t.block_idx.y) * t.block_dim.x + t.thread_idx.x);
}
CARBIDE_DEVICE local_index_witness local_index() {
  return detail::witness_factory::make<local_index_witness>(
      cpu::detail::this_thread("carbide::thread::local_index").local_index);
}
template <unsigned Radius>
CARBIDE_DEVICE index_1d_halo_witness<Radius> index_1d_halo() {
  const auto& t = cpu::detail::this_thread("carbide::thread::index_1d_halo");
  return detail::witness_factory::make<index_1d_halo_witness<Radius>>(
      detail::halo_position(t.block_idx.x, t.block_dim.x, t.thread_idx.x, Radius),
      detail::halo_inner(t.block_dim.x, t.thread_idx.x, Radius));
}
template <unsigned Radius>
CARBIDE_DEVICE index_2d_halo_witness<Radius> index_2d_halo() {
  const auto& t = cpu::detail::this_thread("carbide::thread::index_2d_halo");
  return detail::witness_factory::make<index_2d_halo_witness<Radius>>(
      detail::halo_position(t.block_idx.y, t.block_dim.y, t.thread_idx.y, Radius),
      detail::halo_position(t.block_idx.x, t.block_dim.x, t.thread_idx.x, Radius),
      detail::halo_inner(t.block_dim.y, t.thread_idx.y, Radius) && detail::halo_inner(t.block_dim.x, t.thread_idx.x, Radius));
}
CARBIDE_DEVICE lane_witness lane() {
  return detail::witness_factory::make<lane_witness>(cpu::detail::this_thread("carbide::thread::lane").local_index & 31u);
}
CARBIDE_DEVICE warp_index_witness warp_index_1d() {
  const auto& t = cpu::detail::this_thread("carbide::thread::warp_index_1d");
  const unsigned warps_per_block = (t.block_dim.x * t.block_dim.y * t.block_dim.z + 31u) / 32u;
  return detail::witness_factory::make<warp_index_witness>(std::size_t(t.block_idx.x) * warps_per_block +
                                                           t.local_index / 32u);
}
// Kept out of line too in every program that calls them, with its debug information, so that a
// debugger stopped in a kernel's CPU form can call them: `print carbide::thread::thread_idx()`.
#if defined(__GNUC__)
#define CARBIDE_DEBUGGER_CALLABLE __attribute__((used))
#else
#define CARBIDE_DEBUGGER_CALLABLE
#endif
CARBIDE_DEBUGGER_CALLABLE inline carbide::dim3 thread_idx() {
  const auto& t = cpu::detail::this_thread("carbide::thread::thread_idx");
  return {t.thread_idx.x, t.thread_idx.y, t.thread_idx.z};
}
CARBIDE_DEBUGGER_CALLABLE inline carbide::dim3 block_idx() {
  const auto& t = cpu::detail::this_thread("carbide::thread::block_idx");
  return {t.block_idx.x, t.block_idx.y, t.block_idx.z};
}
CARBIDE_DEBUGGER_CALLABLE inline carbide::dim3 block_dim() {
  const auto& t = cpu::detail::this_thread("carbide::thread::block_dim");
  return {t.block_dim.x, t.block_dim.y, t.block_dim.z};
}
CARBIDE_DEBUGGER_CALLABLE inline carbide::dim3 grid_dim() {
  const auto& t = cpu::detail::this_thread("carbide::thread::grid_dim");
  return {t.grid_dim.x, t.grid_dim.y, t.grid_dim.z};
}
#endif

}  // namespace thread

// 32-bit index arithmetic (contract `index_bits = 32`): the launch has checked that every view's
// extent is below 2^32 and that grid times block along x and y is at most 2^32, so these
// witnesses equal index_1d() and friends computed in 32 bits (one mad.lo.u32, as hand-written
// `int i = blockIdx.x * blockDim.x + threadIdx.x`). Only generated code calls them, in functions
// that no 64-bit kernel reaches.
namespace detail {
#if defined(__CUDACC__)
CARBIDE_DEVICE thread::index_1d_witness index_1d_32() {
  return witness_factory::make<thread::index_1d_witness>(std::size_t(blockIdx.x * blockDim.x + threadIdx.x));
}
CARBIDE_DEVICE thread::index_2d_witness index_2d_32() {
  return witness_factory::make<thread::index_2d_witness>(std::size_t(blockIdx.y * blockDim.y + threadIdx.y),
                                                         std::size_t(blockIdx.x * blockDim.x + threadIdx.x));
}
CARBIDE_DEVICE thread::index_2d_transposed_witness index_2d_transposed_32() {
  return witness_factory::make<thread::index_2d_transposed_witness>(
      std::size_t(blockIdx.x * blockDim.y + threadIdx.y), std::size_t(blockIdx.y * blockDim.x + threadIdx.x));
}
// An extent below 2^32 as the zero-extension of a 32-bit register the compiler cannot see
// through: comparisons of it with a 32-bit index then narrow to 32 bits (with a plain
// `std::uint32_t(n)` the compiler keeps a 64-bit mask and compare).
CARBIDE_DEVICE std::size_t narrow_extent(std::size_t n) {
  unsigned narrow;
  asm("mov.b32 %0, %1;" : "=r"(narrow) : "r"(unsigned(n)));
  return narrow;
}
#else
CARBIDE_DEVICE thread::index_1d_witness index_1d_32() {
  const auto& t = cpu::detail::this_thread("carbide::detail::index_1d_32");
  return witness_factory::make<thread::index_1d_witness>(std::size_t(t.block_idx.x * t.block_dim.x + t.thread_idx.x));
}
CARBIDE_DEVICE thread::index_2d_witness index_2d_32() {
  const auto& t = cpu::detail::this_thread("carbide::detail::index_2d_32");
  return witness_factory::make<thread::index_2d_witness>(std::size_t(t.block_idx.y * t.block_dim.y + t.thread_idx.y),
                                                         std::size_t(t.block_idx.x * t.block_dim.x + t.thread_idx.x));
}
CARBIDE_DEVICE thread::index_2d_transposed_witness index_2d_transposed_32() {
  const auto& t = cpu::detail::this_thread("carbide::detail::index_2d_transposed_32");
  return witness_factory::make<thread::index_2d_transposed_witness>(
      std::size_t(t.block_idx.x * t.block_dim.y + t.thread_idx.y), std::size_t(t.block_idx.y * t.block_dim.x + t.thread_idx.x));
}
CARBIDE_DEVICE std::size_t narrow_extent(std::size_t n) { return std::uint32_t(n); }
#endif
}  // namespace detail

namespace detail {
template <class T, int K>
inline constexpr std::size_t vec_alignment =
    (sizeof(T) * K) % 16 == 0 ? 16 : (sizeof(T) * K) % 8 == 0 ? 8 : alignof(T);
}  // namespace detail

// K elements of T by value, aligned so that a whole vec moves with 8- or 16-byte instructions.
template <class T, int K>
struct alignas(detail::vec_alignment<T, K>) vec {
  static_assert(K > 0, "a vec holds at least one element");
  T values[K];
  CARBIDE_HOST_DEVICE constexpr T& operator[](int i) {
    detail::check_element_index(i, K, "carbide::vec::operator[]");
    return values[i];
  }
  CARBIDE_HOST_DEVICE constexpr const T& operator[](int i) const {
    detail::check_element_index(i, K, "carbide::vec::operator[]");
    return values[i];
  }
  static constexpr int size() { return K; }
};

namespace detail {

#if defined(__CUDACC__)
// Moves a whole vec in the widest units its alignment allows. Views start 16-byte aligned
// (allocations at 256 bytes; DeviceBuffer::slice and borrow check it) and chunk i starts at
// element K·i, so chunk addresses are vec-aligned.
template <class Unit, class T, int K>
__device__ __forceinline__ vec<T, K> load_units(const T* from) {
  vec<T, K> out;
  const Unit* source = reinterpret_cast<const Unit*>(from);
  Unit* target = reinterpret_cast<Unit*>(&out);
  CARBIDE_UNROLL
  for (unsigned u = 0; u < sizeof(out) / sizeof(Unit); ++u) {
    if constexpr (std::is_same_v<Unit, uint4> || std::is_same_v<Unit, uint2>) target[u] = __ldg(source + u);
    else target[u] = source[u];
  }
  return out;
}
template <class T, int K>
__device__ __forceinline__ vec<T, K> load_vec(const T* from) {
  if constexpr (alignof(vec<T, K>) == 16) return load_units<uint4, T, K>(from);
  else if constexpr (alignof(vec<T, K>) == 8) return load_units<uint2, T, K>(from);
  else return load_units<T, T, K>(from);
}
template <class T, int K>
__device__ __forceinline__ void store_vec(T* to, const vec<T, K>& value) {
  *reinterpret_cast<vec<T, K>*>(to) = value;
}
#endif

// How many of the K elements from `first` on lie before `size`: K, fewer for a partial last
// piece, 0 past the end.
CARBIDE_HOST_DEVICE int count_within(std::size_t first, std::size_t size, std::size_t k) {
  return first < size ? int(size - first < k ? size - first : k) : 0;
}

// The first `count` elements from `from`, zeros after them. Constant indexes only (the loop
// unrolls), so the values stay in registers. On the CPU the read is recorded for the race checks,
// as store_first's write is.
template <class T, int K>
CARBIDE_DEVICE vec<T, K> load_first(const T* from, int count) {
#if !defined(__CUDACC__)
  cpu::detail::record_here(cpu::Access::Read, from, std::size_t(count) * sizeof(T));
#endif
  vec<T, K> values{};
  CARBIDE_UNROLL
  for (int j = 0; j < K; ++j)
    if (j < count) values[j] = from[j];
  return values;
}

// Stores the first `count` of `values`: one vector store when that is all K of them and `to` is
// vec-aligned, else element by element.
template <class T, int K>
CARBIDE_DEVICE void store_first(T* to, const vec<T, K>& values, int count,
                                [[maybe_unused]] bool vec_aligned) {
#if defined(__CUDACC__)
  if (count == K && vec_aligned) {
    store_vec<T, K>(to, values);
    return;
  }
#else
  cpu::detail::record_here(cpu::Access::Write, to, std::size_t(count) * sizeof(T));
#endif
  CARBIDE_UNROLL
  for (int j = 0; j < K; ++j)
    if (j < count) to[j] = values[j];
}

}  // namespace detail

// A read-only view shared by every thread. Indexing is bounds-checked: a checked build traps
// on an index past the end instead of reading another allocation.
// (span<T> of a non-const T is rejected by carbide-kernel-signature, with a fix-it.)
template <class T>
class span {
 public:
  using element_type = T;
  CARBIDE_HOST_DEVICE std::size_t size() const { return size_; }
  CARBIDE_HOST_DEVICE T* data() const { return data_; }
  // Read through the read-only data cache (ld.global.nc) where the element type allows: legal
  // because nothing writes a span's memory during the launch. The kernel cannot (the view is
  // const), and the launch refused any exclusive or atomic view that overlaps it.
  CARBIDE_DEVICE decltype(auto) operator[](std::size_t i) const {
#if defined(__CUDACC__)
    if constexpr (detail::has_read_only_load<std::remove_const_t<T>>) {
#if defined(CARBIDE_CHECKED)
      // An index past the end loads from address 0, which is never mapped: the launch ends with
      // an illegal-address error before any other allocation is read. Selecting the address
      // is not a branch, so consecutive reads issue together as in hand-written code. __ldg is
      // inline asm: the compiler cannot treat the null address as impossible and drop the
      // selection (tests/gpu/device_checks_gpu_test.cpp checks that the launch fails).
      return __ldg(i < size_ ? data_ + i : static_cast<T*>(nullptr));
#else
      return __ldg(data_ + i);
#endif
    } else {
#if defined(CARBIDE_CHECKED)
      if (i >= size_) detail::fail_check();
#endif
      return static_cast<T&>(data_[i]);
    }
#else
    // Always checked on the CPU, and recorded for the race checks.
    if (i >= size_) cpu::detail::index_past_end(data_, i, size_);
    cpu::detail::record_here(cpu::Access::Read, data_ + i, sizeof(T));
    return static_cast<T&>(data_[i]);
#endif
  }
  // A read the translator proved below size() (`x[in_range(i)]`, generated code only): the
  // same load without the address selection.
  CARBIDE_DEVICE decltype(auto) operator[]([[maybe_unused]] detail::in_range_index i) const {
#if defined(__CUDACC__)
    if constexpr (detail::has_read_only_load<std::remove_const_t<T>>) return __ldg(data_ + i.value);
    else return static_cast<T&>(data_[i.value]);
#else
    if (i.value >= size_) cpu::detail::index_past_end(data_, i.value, size_);
    cpu::detail::record_here(cpu::Access::Read, data_ + i.value, sizeof(T));
    return static_cast<T&>(data_[i.value]);
#endif
  }
  // operator[]'s read with CUDA's streaming hint (__ldcs: cached to be evicted first), for data
  // read once, so that what is read again (a layer norm's weights) stays in the caches. Checked
  // as operator[] is.
  CARBIDE_DEVICE std::remove_const_t<T> load_streaming(std::size_t i) const {
#if defined(__CUDACC__)
    if constexpr (detail::has_read_only_load<std::remove_const_t<T>>) {
#if defined(CARBIDE_CHECKED)
      return __ldcs(i < size_ ? data_ + i : static_cast<T*>(nullptr));
#else
      return __ldcs(data_ + i);
#endif
    } else {
      return (*this)[i];
    }
#else
    return (*this)[i];
#endif
  }
  CARBIDE_HOST_DEVICE T* begin() const { return data_; }
  CARBIDE_HOST_DEVICE T* end() const { return data_ + size_; }

  // Elements [offset, offset + count) as a view of their own: CUDA's `in + row * cols`, with
  // its length. A range that reaches past the end fails the launch in a checked build (and
  // always on the CPU), as an index past it does; reads of the piece are checked against
  // `count`.
  CARBIDE_DEVICE span subspan(std::size_t offset, std::size_t count) const {
#if defined(__CUDACC__)
#if defined(CARBIDE_CHECKED)
    if (offset > size_ || count > size_ - offset) detail::fail_check();
#endif
#else
    if (offset > size_ || count > size_ - offset) cpu::detail::chunk_past_end(data_, offset, count, size_);
#endif
    span piece;
    piece.data_ = data_ + offset;
    piece.size_ = count;
    return piece;
  }

  // Elements [K·i, K·i+K), all of which must lie inside the view: one vector load and no
  // branch. A chunk that reaches past the end fails the launch (it loads from address 0, as
  // operator[] does); chunk<K> is the form for data whose last chunk may be partial.
  template <int K>
  CARBIDE_DEVICE vec<std::remove_const_t<T>, K> whole_chunk([[maybe_unused]] std::size_t i) const {
#if defined(__CUDACC__)
    using U = std::remove_const_t<T>;
    using Values = vec<U, K>;
    const std::size_t first = i * K;
#if defined(CARBIDE_CHECKED)
    // Address 0 is safe to select only for the vector loads, which are inline asm (__ldg); a
    // narrower vec loads element by element in plain C++ and checks with a branch instead.
    if constexpr (alignof(Values) >= 8) {
      return detail::load_vec<U, K>(first + K <= size_ ? data_ + first : static_cast<U*>(nullptr));
    } else {
      if (first + K > size_) detail::fail_check();
      return detail::load_vec<U, K>(data_ + first);
    }
#else
    return detail::load_vec<U, K>(data_ + first);
#endif
#else
    using U = std::remove_const_t<T>;
    if (i >= size_ / K) cpu::detail::chunk_past_end(data_, i * K, K, size_);
    return detail::load_first<U, K>(data_ + i * K, K);
#endif
  }

  // Elements [K·i, K·i+K) in one vector load; past the end of a partial last chunk they read as
  // T{}. A chunk that starts past the end traps in a checked build. The full-chunk test comes
  // first, so the common case costs one comparison, as in hand-written vector code.
  template <int K>
  CARBIDE_DEVICE vec<std::remove_const_t<T>, K> chunk([[maybe_unused]] std::size_t i) const {
#if defined(__CUDACC__)
    const std::size_t first = i * K;
    if (first + K <= size_) return detail::load_vec<std::remove_const_t<T>, K>(data_ + first);
#if defined(CARBIDE_CHECKED)
    if (first >= size_) detail::fail_check();
#endif
    return detail::load_first<std::remove_const_t<T>, K>(data_ + first, detail::count_within(first, size_, K));
#else
    if (i >= (size_ + K - 1) / K) cpu::detail::chunk_past_end(data_, i * K, K, size_);
    return detail::load_first<std::remove_const_t<T>, K>(data_ + i * K, detail::count_within(i * K, size_, K));
#endif
  }

 private:
  friend struct detail::view_access;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// The K elements [K·i, K·i+K) of an exclusive output that belong to one thread (fewer in a
// partial last chunk, none past the end). It hands out no pointer: elements are reached by
// index within the chunk, and a full chunk stores with one vector instruction.
template <class T, int K>
class chunk_mut {
 public:
  chunk_mut(const chunk_mut&) = delete;
  chunk_mut& operator=(const chunk_mut&) = delete;
  CARBIDE_DEVICE explicit operator bool() const { return count_ > 0; }
  CARBIDE_DEVICE int size() const { return count_; }
  CARBIDE_DEVICE T& operator[](int j) const {
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (j < 0 || j >= count_) detail::fail_check();
#elif !defined(__CUDACC__)
    if (j < 0 || j >= count_) cpu::detail::piece_index_past_end("carbide::chunk_mut::operator[]", j, count_);
#endif
    return data_[j];
  }
  CARBIDE_DEVICE vec<T, K> load() const { return detail::load_first<T, K>(data_, count_); }
  // Elements of `values` past a partial chunk's end are not stored.
  CARBIDE_DEVICE void store(const vec<T, K>& values) const {
    detail::store_first<T, K>(data_, values, count_, true);
  }
  // All K values in one vector store, without store()'s partial-chunk path: for a view whose
  // length is a multiple of K, so that every chunk is whole or empty. The launch checks that
  // length for every view a kernel stores whole chunks of (carbide::validate_whole_chunks) and
  // throws before the kernel runs; an empty chunk stores nothing (its test is the one
  // `if (auto c = ...)` already made).
  CARBIDE_DEVICE void store_whole([[maybe_unused]] const vec<T, K>& values) const {
#if defined(__CUDACC__)
    if (count_ > 0) detail::store_vec<T, K>(data_, values);
#else
    // A partial chunk here would be stored past the view's end on the device.
    if (count_ > 0 && count_ < K) cpu::detail::piece_index_past_end("carbide::chunk_mut::store_whole", K - 1, count_);
    if (count_ > 0) detail::store_first<T, K>(data_, values, K, true);
#endif
  }

 private:
  friend struct detail::witness_factory;
  CARBIDE_DEVICE chunk_mut(T* data, int count) : data_(data), count_(count) {}
  T* data_;
  int count_;
};

// The two elements of an exclusive output one thread owns in a butterfly step (a bitonic merge,
// an FFT or Walsh-Hadamard stage, a scan's sweep): with stride s, a power of two that every
// thread of the launch passes alike, the thread whose witness is i owns
// pos = 2·i − (i & (s − 1)) and pos + s. Those are i's place among the lower halves of the
// blocks of 2·s elements and its partner s above it, so no two threads share an element. The
// pair is empty (false) when pos + s lies past the view's end. It hands out references to its
// two elements only, never a pointer, so a comparator reads and writes them in place.
template <class T>
class pair_mut {
 public:
  pair_mut(const pair_mut&) = delete;
  pair_mut& operator=(const pair_mut&) = delete;
  CARBIDE_DEVICE explicit operator bool() const { return data_ != nullptr; }
  CARBIDE_DEVICE T& first() const { return data_[first_]; }
  CARBIDE_DEVICE T& second() const { return data_[first_ + stride_]; }
  // Where the two elements are in the view: pos and pos + s.
  CARBIDE_DEVICE std::size_t first_index() const { return first_; }
  CARBIDE_DEVICE std::size_t second_index() const { return first_ + stride_; }

 private:
  friend struct detail::witness_factory;
  CARBIDE_DEVICE pair_mut(T* data, std::size_t first, std::size_t stride)
      : data_(data), first_(first), stride_(stride) {}
  T* data_;  // null for an empty pair
  std::size_t first_, stride_;
};

// The R elements of an exclusive output one thread owns in a radix-R butterfly stage (a Walsh
// or FFT stage of radix 4, say): with stride s, a power of two the same for every thread of the
// launch, the thread whose witness is i owns first = (i − lo)·R + lo, where lo = i & (s − 1),
// and first + s, …, first + (R − 1)·s. pair_mut is the radix-2 case. Empty (false) when the last
// lies past the view's end.
template <class T, int R>
class radix_mut {
 public:
  radix_mut(const radix_mut&) = delete;
  radix_mut& operator=(const radix_mut&) = delete;
  CARBIDE_DEVICE explicit operator bool() const { return data_ != nullptr; }
  CARBIDE_DEVICE T& operator[](int k) const {
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (k < 0 || k >= R) detail::fail_check();
#elif !defined(__CUDACC__)
    if (k < 0 || k >= R) cpu::detail::piece_index_past_end("carbide::radix_mut::operator[]", k, R);
#endif
    return data_[index(k)];
  }
  // Where element k lies in the view: first + k·s.
  CARBIDE_DEVICE std::size_t index(int k) const { return first_ + std::size_t(k) * stride_; }

 private:
  friend struct detail::witness_factory;
  CARBIDE_DEVICE radix_mut(T* data, std::size_t first, std::size_t stride)
      : data_(data), first_(first), stride_(stride) {}
  T* data_;  // null when empty
  std::size_t first_, stride_;
};

// The elements a thread owns of a region of an exclusive output, dealt out in turn among the
// region's holders: thread t of a B-thread block owns t, t + B, t + 2·B, … of its block's region
// (get_mut_block_region: the 256 bins a 192-thread block writes), lane l owns l, l + 32, … of
// its warp's row (get_mut_warp_row: a layer norm's row). The region's length is one value for the
// whole launch (carbide check proves it), so regions never overlap.
template <class T>
class region_mut {
 public:
  region_mut(const region_mut&) = delete;
  region_mut& operator=(const region_mut&) = delete;
  CARBIDE_DEVICE explicit operator bool() const { return count_ > 0; }
  // How many of the region's elements this thread owns.
  CARBIDE_DEVICE unsigned count() const { return count_; }
  // Where the thread's k-th element lies in the region (t + k·B): which bin, which column.
  CARBIDE_DEVICE std::size_t index(unsigned k) const { return first_ + std::size_t(k) * step_; }
  CARBIDE_DEVICE T& operator[](unsigned k) const {
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (k >= count_) detail::fail_check();
#elif !defined(__CUDACC__)
    if (k >= count_) cpu::detail::piece_index_past_end("carbide::region_mut::operator[]", k, count_);
#endif
    return data_[index(k)];
  }
  // `(*this)[k] = value` with CUDA's streaming hint (__stcs: cached to be evicted first), for
  // output no thread of the launch reads again.
  CARBIDE_DEVICE void store_streaming(unsigned k, T value) const {
#if defined(__CUDACC__)
    if constexpr (detail::has_read_only_load<T>) {
#if defined(CARBIDE_CHECKED)
      if (k >= count_) detail::fail_check();
#endif
      __stcs(data_ + index(k), value);
    } else {
      (*this)[k] = value;
    }
#else
    (*this)[k] = value;
#endif
  }

 private:
  friend struct detail::witness_factory;
  CARBIDE_DEVICE region_mut(T* data, std::size_t first, std::size_t step, unsigned count)
      : data_(data), first_(first), step_(step), count_(count) {}
  T* data_;  // the region's first element
  std::size_t first_, step_;
  unsigned count_;
};

// The Rows × Cols block of a 2-D exclusive output that belongs to one thread: rows
// [Rows·r, Rows·r + Rows) and columns [Cols·c, Cols·c + Cols) for the thread at (r, c), cut at
// the matrix's edges. Register-tiled kernels (SGEMM) write their results through it; it hands
// out no pointer, and a full-width row stores with vector instructions.
template <class T, int Rows, int Cols>
class tile_mut {
 public:
  tile_mut(const tile_mut&) = delete;
  tile_mut& operator=(const tile_mut&) = delete;
  CARBIDE_DEVICE explicit operator bool() const { return rows_ > 0 && cols_ > 0; }
  CARBIDE_DEVICE int rows() const { return rows_; }
  CARBIDE_DEVICE int cols() const { return cols_; }
  CARBIDE_DEVICE T& operator()(int i, int j) const {
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (i < 0 || i >= rows_ || j < 0 || j >= cols_) detail::fail_check();
#elif !defined(__CUDACC__)
    if (i < 0 || i >= rows_) cpu::detail::piece_index_past_end("row of carbide::tile_mut::operator()", i, rows_);
    if (j < 0 || j >= cols_) cpu::detail::piece_index_past_end("column of carbide::tile_mut::operator()", j, cols_);
#endif
    return data_[std::size_t(i) * pitch_ + j];
  }
  // Row i of the tile; columns past the matrix's edge are not stored.
  CARBIDE_DEVICE void store_row(int i, const vec<T, Cols>& values) const {
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (i < 0 || i >= rows_) detail::fail_check();
#elif !defined(__CUDACC__)
    if (i < 0 || i >= rows_) cpu::detail::piece_index_past_end("carbide::tile_mut::store_row", i, rows_);
#endif
    detail::store_first<T, Cols>(data_ + std::size_t(i) * pitch_, values, cols_, vector_rows_);
  }
  // Column j of the tile, one element per row; rows past the matrix's edge are not stored.
  CARBIDE_DEVICE void store_column(int j, const vec<T, Rows>& values) const {
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (j < 0 || j >= cols_) detail::fail_check();
#elif !defined(__CUDACC__)
    if (j < 0 || j >= cols_) cpu::detail::piece_index_past_end("carbide::tile_mut::store_column", j, cols_);
    for (int i = 0; i < rows_; ++i)
      cpu::detail::record_here(cpu::Access::Write, data_ + std::size_t(i) * pitch_ + j, sizeof(T));
#endif
    CARBIDE_UNROLL
    for (int i = 0; i < Rows; ++i)
      if (i < rows_) data_[std::size_t(i) * pitch_ + j] = values[i];
  }

 private:
  friend struct detail::witness_factory;
  CARBIDE_DEVICE tile_mut(T* data, std::size_t pitch, int rows, int cols)
      : data_(data), pitch_(pitch), rows_(rows), cols_(cols),
        vector_rows_((pitch * sizeof(T)) % alignof(vec<T, Cols>) == 0) {}
  T* data_;
  std::size_t pitch_;
  int rows_, cols_;
  bool vector_rows_;  // every row starts vec-aligned (the matrix's start is)
};

// The N pieces of K contiguous elements a thread owns when its block owns N·B consecutive pieces
// of a 1-D output (B threads a block) and deals them out in turn: thread t has pieces t, t + B,
// …, t + (N − 1)·B of its block's. Consecutive threads own consecutive pieces, so a warp's store
// of piece j covers 32·K contiguous elements, which keeps vector stores at full width where
// K adjacent pieces per thread would leave every other one half-used.
template <class T, int K, int N>
class strided_chunks_mut {
 public:
  strided_chunks_mut(const strided_chunks_mut&) = delete;
  strided_chunks_mut& operator=(const strided_chunks_mut&) = delete;
  CARBIDE_DEVICE explicit operator bool() const { return count(0) > 0; }
  // Which piece of the view piece j is, counted in pieces of K: `in.chunk<K>(mine.piece(j))`
  // reads the input that matches it.
  CARBIDE_DEVICE std::size_t piece(int j) const { return first_ + std::size_t(j) * stride_; }
  // How many of piece j's elements lie inside the view: K, fewer for a partial last piece, 0 past the end.
  CARBIDE_DEVICE int count(int j) const { return detail::count_within(piece(j) * K, size_, K); }
  // Loads piece j, for an update in place; elements past the view's end read as T{}.
  CARBIDE_DEVICE vec<T, K> load(int j) const {
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (j < 0 || j >= N) detail::fail_check();
#elif !defined(__CUDACC__)
    if (j < 0 || j >= N) cpu::detail::piece_index_past_end("carbide::strided_chunks_mut::load", j, N);
#endif
    return detail::load_first<T, K>(data_ + piece(j) * K, count(j));
  }
  // Stores piece j; elements past the view's end are not stored.
  CARBIDE_DEVICE void store(int j, const vec<T, K>& values) const {
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (j < 0 || j >= N) detail::fail_check();
#elif !defined(__CUDACC__)
    if (j < 0 || j >= N) cpu::detail::piece_index_past_end("carbide::strided_chunks_mut::store", j, N);
#endif
    const int inside = count(j);
    if (inside > 0) detail::store_first<T, K>(data_ + piece(j) * K, values, inside, true);
  }
  // Stores piece j whole, in one vector store (see chunk_mut::store_whole): the launch checked
  // that the view's length is a multiple of K; a piece past the end stores nothing.
  CARBIDE_DEVICE void store_whole([[maybe_unused]] int j, [[maybe_unused]] const vec<T, K>& values) const {
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (j < 0 || j >= N) detail::fail_check();
#endif
#if defined(__CUDACC__)
    if (piece(j) * K < size_) detail::store_vec<T, K>(data_ + piece(j) * K, values);
#else
    if (j < 0 || j >= N) cpu::detail::piece_index_past_end("carbide::strided_chunks_mut::store_whole", j, N);
    // A partial piece here would be stored past the view's end on the device.
    const int inside = count(j);
    if (inside > 0 && inside < K) cpu::detail::piece_index_past_end("carbide::strided_chunks_mut::store_whole", K - 1, inside);
    if (inside > 0) detail::store_first<T, K>(data_ + piece(j) * K, values, K, true);
#endif
  }

 private:
  friend struct detail::witness_factory;
  CARBIDE_DEVICE strided_chunks_mut(T* data, std::size_t size, std::size_t first, std::size_t stride)
      : data_(data), size_(size), first_(first), stride_(stride) {}
  T* data_;
  std::size_t size_, first_, stride_;
};

// The Rows × Cols elements a thread owns when its By × Bx block owns a (Rows·By) × (Cols·Bx)
// region of a 2-D output and deals out rows and columns in turn: thread (ty, tx) has rows
// ty, ty + By, … and columns tx, tx + Bx, … of the region. A warp's store of element (i, j)
// then covers 32 consecutive columns of one row (in a 32-wide block), and the block's rows are
// written in order.
template <class T, int Rows, int Cols>
class strided_tile_mut {
 public:
  strided_tile_mut(const strided_tile_mut&) = delete;
  strided_tile_mut& operator=(const strided_tile_mut&) = delete;
  CARBIDE_DEVICE explicit operator bool() const { return rows_inside_ > 0 && cols_inside_ > 0; }
  // The matrix row of the tile's row i, and the matrix column of its column j.
  CARBIDE_DEVICE std::size_t row(int i) const { return first_row_ + std::size_t(i) * row_stride_; }
  CARBIDE_DEVICE std::size_t col(int j) const { return first_col_ + std::size_t(j) * col_stride_; }
  // Loads element (i, j) of the tile, for an update in place; T{} past the matrix's edge.
  CARBIDE_DEVICE T load(int i, int j) const {
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (i < 0 || i >= Rows || j < 0 || j >= Cols) detail::fail_check();
#elif !defined(__CUDACC__)
    check_piece("carbide::strided_tile_mut::load", i, j);
    if (i < rows_inside_ && j < cols_inside_)
      cpu::detail::record_here(cpu::Access::Read, data_ + row(i) * pitch_ + col(j), sizeof(T));
#endif
    return i < rows_inside_ && j < cols_inside_ ? data_[row(i) * pitch_ + col(j)] : T{};
  }
  // Stores element (i, j) of the tile unless it lies past the matrix's edge.
  CARBIDE_DEVICE void store(int i, int j, const T& value) const {
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (i < 0 || i >= Rows || j < 0 || j >= Cols) detail::fail_check();
#elif !defined(__CUDACC__)
    check_piece("carbide::strided_tile_mut::store", i, j);
    if (i < rows_inside_ && j < cols_inside_)
      cpu::detail::record_here(cpu::Access::Write, data_ + row(i) * pitch_ + col(j), sizeof(T));
#endif
    // The rows and columns inside the matrix come first, so with the unrolled loops' constant i
    // and j the test is one comparison each.
    if (i < rows_inside_ && j < cols_inside_) data_[row(i) * pitch_ + col(j)] = value;
  }
  // Column j of the tile, one element per row, rows past the matrix's edge not stored: the
  // values are gathered first, so their loads issue together, and the rows are a pointer step apart.
  CARBIDE_DEVICE void store_column(int j, const vec<T, Rows>& values) const {
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (j < 0 || j >= Cols) detail::fail_check();
#elif !defined(__CUDACC__)
    if (j < 0 || j >= Cols) cpu::detail::piece_index_past_end("carbide::strided_tile_mut::store_column", j, Cols);
    for (int i = 0; i < rows_inside_ && j < cols_inside_; ++i)
      cpu::detail::record_here(cpu::Access::Write, data_ + row(i) * pitch_ + col(j), sizeof(T));
#endif
    if (j >= cols_inside_) return;
    T* to = data_ + first_row_ * pitch_ + col(j);
    CARBIDE_UNROLL
    for (int i = 0; i < Rows; ++i, to += row_step_)
      if (i < rows_inside_) *to = values[i];
  }

 private:
  friend struct detail::witness_factory;
  CARBIDE_DEVICE strided_tile_mut(T* data, std::size_t rows, std::size_t cols, std::size_t pitch,
                                  std::size_t first_row, std::size_t row_stride, std::size_t first_col,
                                  std::size_t col_stride)
      : data_(data), pitch_(pitch), first_row_(first_row), row_stride_(row_stride),
        first_col_(first_col), col_stride_(col_stride), row_step_(row_stride * pitch),
        rows_inside_(inside<Rows>(first_row, row_stride, rows)),
        cols_inside_(inside<Cols>(first_col, col_stride, cols)) {}
#if !defined(__CUDACC__)
  static void check_piece(const char* what, int i, int j) {
    if (i < 0 || i >= Rows) cpu::detail::piece_index_past_end(what, i, Rows);
    if (j < 0 || j >= Cols) cpu::detail::piece_index_past_end(what, j, Cols);
  }
#endif
  // How many of the Count indexes first, first + stride, … lie below `size` (a prefix of them).
  template <int Count>
  CARBIDE_DEVICE static int inside(std::size_t first, std::size_t stride, std::size_t size) {
    int n = 0;
    CARBIDE_UNROLL
    for (int k = 0; k < Count; ++k) n += first + std::size_t(k) * stride < size;
    return n;
  }
  T* data_;
  std::size_t pitch_, first_row_, row_stride_, first_col_, col_stride_, row_step_;
  int rows_inside_, cols_inside_;
};

namespace detail {
// The calling thread's lane in its warp, for the vocabulary's warp forms; `what` names the caller
// when a CPU thread calls it outside a launch.
CARBIDE_DEVICE unsigned lane_of_thread([[maybe_unused]] const char* what) {
#if defined(__CUDACC__)
  return thread::flat_thread_index() & 31u;
#else
  return cpu::detail::this_thread(what).local_index & 31u;
#endif
}
}  // namespace detail

// An exclusive output: each thread reaches only the element its own witness names.
template <class T>
class disjoint_span {
  static_assert(!std::is_const_v<T>, "a disjoint_span is an output: its element type is not const");

 public:
  using element_type = T;
  CARBIDE_HOST_DEVICE std::size_t size() const { return size_; }
  // `out[i] = …`, the CUDA way, says which form to use instead (see cuda_idioms.hpp).
  T& operator[](std::size_t i) const CARBIDE_CUDA_VIEW_SUBSCRIPT;
  // nullptr when the thread's index is past the end, so the bounds test cannot be forgotten.
  CARBIDE_DEVICE T* get_mut(const thread::index_1d_witness& own) const {
    return own.get() < size_ ? detail::non_null(data_ + own.get()) : nullptr;
  }
  // The element an inner thread of a halo block stands on; nullptr in the halo and past the end.
  template <unsigned Radius>
  CARBIDE_DEVICE T* get_mut(const thread::index_1d_halo_witness<Radius>& own) const {
    return own.inner() && std::size_t(own.get()) < size_ ? detail::non_null(data_ + own.get()) : nullptr;
  }
  // The chunk [K·i, K·i+K) of the thread whose witness is i: converts on test (if (auto c = …)).
  template <int K>
  CARBIDE_DEVICE chunk_mut<T, K> get_mut_chunk(const thread::index_1d_witness& own) const {
    const std::size_t first = own.get() * K;
    const int count = detail::count_within(first, size_, K);
    return detail::witness_factory::make<chunk_mut<T, K>>(data_ + (count ? first : 0), count);
  }
  // The butterfly pair of the thread whose witness is i at stride s (see pair_mut): s must be a
  // power of two and the same for every thread of the launch, which carbide check proves.
  CARBIDE_DEVICE pair_mut<T> get_mut_pair(const thread::index_1d_witness& own, std::size_t stride) const {
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (stride == 0 || (stride & (stride - 1)) != 0) detail::fail_check();
#elif !defined(__CUDACC__)
    if (stride == 0 || (stride & (stride - 1)) != 0)
      cpu::detail::stride_not_power_of_two("carbide::disjoint_span::get_mut_pair", stride);
#endif
    const std::size_t first = 2 * own.get() - (own.get() & (stride - 1));
    return detail::witness_factory::make<pair_mut<T>>(first + stride < size_ ? data_ : nullptr,
                                                      first, stride);
  }
  // The radix-R butterfly group of the thread whose witness is i at stride s (see radix_mut):
  // s must be a power of two and the same for every thread of the launch.
  template <int R>
  CARBIDE_DEVICE radix_mut<T, R> get_mut_radix(const thread::index_1d_witness& own, std::size_t stride) const {
    static_assert(R >= 2, "a butterfly has at least two elements");
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (stride == 0 || (stride & (stride - 1)) != 0) detail::fail_check();
#elif !defined(__CUDACC__)
    if (stride == 0 || (stride & (stride - 1)) != 0)
      cpu::detail::stride_not_power_of_two("carbide::disjoint_span::get_mut_radix", stride);
#endif
    const std::size_t lo = own.get() & (stride - 1);
    const std::size_t first = (own.get() - lo) * R + lo;
    return detail::witness_factory::make<radix_mut<T, R>>(
        first + (R - 1) * stride < size_ ? data_ : nullptr, first, stride);
  }
  // The leader form: element b of a per-block output (a reduction's partial, a scan's block
  // total) for block b of the launch (counted x fastest), given to the block's local thread 0;
  // nullptr for every other thread and for blocks past the end.
  CARBIDE_DEVICE T* get_mut_block(const thread::local_index_witness& own) const {
#if defined(__CUDACC__)
    return block_element(own, detail::flat_block_index());
#else
    return block_element(own, cpu::detail::flat_block_index(cpu::detail::this_thread("carbide::disjoint_span::get_mut_block")));
#endif
  }
  // The same for the index a block-stride loop gives the block (block::grid_stride).
  CARBIDE_DEVICE T* get_mut_block(const thread::local_index_witness& own, const thread::block_index_witness& block) const {
    return block_element(own, block.get());
  }
  // The block's region of n elements, dealt out to its threads (see region_mut); n must be
  // the same for the whole launch.
  CARBIDE_DEVICE region_mut<T> get_mut_block_region(const thread::local_index_witness& own,
                                                    std::size_t n) const {
#if defined(__CUDACC__)
    return block_region(own, n, detail::flat_block_index());
#else
    return block_region(
        own, n, cpu::detail::flat_block_index(cpu::detail::this_thread("carbide::disjoint_span::get_mut_block_region")));
#endif
  }
  // Region `block.get()` of n elements: a block-stride loop's row, dealt out to the block's threads.
  CARBIDE_DEVICE region_mut<T> get_mut_block_region(const thread::local_index_witness& own, std::size_t n,
                                                    const thread::block_index_witness& block) const {
    return block_region(own, n, block.get());
  }
  // Row w of n elements, [w·n, w·n + n) cut at the end, for the warp whose witness is w, dealt out
  // to its lanes with a stride of 32 (see region_mut): lane l owns columns l, l + 32, …. n must be
  // the same for the whole launch.
  CARBIDE_DEVICE region_mut<T> get_mut_warp_row(const thread::warp_index_witness& warp, std::size_t n) const {
    return dealt_region(warp.get(), n, detail::lane_of_thread("carbide::disjoint_span::get_mut_warp_row"), 32);
  }
  // Element w, a row's scalar (its mean, its reciprocal deviation), for lane 0 of the warp whose
  // witness is w; nullptr for its other lanes and past the end.
  CARBIDE_DEVICE T* get_mut_warp_leader(const thread::warp_index_witness& warp) const {
    return detail::lane_of_thread("carbide::disjoint_span::get_mut_warp_leader") == 0 && warp.get() < size_
               ? detail::non_null(data_ + warp.get())
               : nullptr;
  }
  // The N pieces of K elements of the thread whose witness is i, dealt out in turn across its
  // block (see strided_chunks_mut). The block's own index is i minus the thread's, so a
  // grid-stride witness gets the pieces of the block it stands for.
  template <int K, int N>
  CARBIDE_DEVICE strided_chunks_mut<T, K, N> get_mut_strided_chunks(const thread::index_1d_witness& own) const {
    using Pieces = strided_chunks_mut<T, K, N>;
#if defined(__CUDACC__)
    return detail::witness_factory::make<Pieces>(data_, size_, (own.get() - threadIdx.x) * N + threadIdx.x,
                                                 std::size_t(blockDim.x));
#else
    const auto& t = cpu::detail::this_thread("carbide::disjoint_span::get_mut_strided_chunks");
    return detail::witness_factory::make<Pieces>(data_, size_, (own.get() - t.thread_idx.x) * N + t.thread_idx.x,
                                                 std::size_t(t.block_dim.x));
#endif
  }

 private:
  friend struct detail::view_access;
  // The leader and region forms for the block that owns index `block`.
  CARBIDE_DEVICE T* block_element(const thread::local_index_witness& own, std::size_t block) const {
    return own.get() == 0 && block < size_ ? detail::non_null(data_ + block) : nullptr;
  }
  CARBIDE_DEVICE region_mut<T> block_region(const thread::local_index_witness& own, std::size_t n,
                                            std::size_t block) const {
#if defined(__CUDACC__)
    const std::size_t threads = std::size_t(blockDim.x) * blockDim.y * blockDim.z;
#else
    const auto& t = cpu::detail::this_thread("carbide::disjoint_span::get_mut_block_region");
    const std::size_t threads = std::size_t(t.block_dim.x) * t.block_dim.y * t.block_dim.z;
#endif
    return dealt_region(block, n, own.get(), threads);
  }
  // Region `owner` of n elements, [owner·n, owner·n + n) cut at the end, dealt out in turn to its
  // `holders` from `first` on. An owner whose region starts past the end gets none, and so does
  // one whose start does not fit in 64 bits: wrapped, it would land on another owner's region.
  CARBIDE_DEVICE region_mut<T> dealt_region(std::size_t owner, std::size_t n, std::size_t first,
                                            std::size_t holders) const {
    std::size_t start = 0;
    const bool inside_view = detail::product_fits(owner, n, &start) && start < size_;
    const std::size_t inside = inside_view ? (size_ - start < n ? size_ - start : n) : 0;
    const unsigned count = inside > first ? unsigned((inside - first + holders - 1) / holders) : 0u;
    return detail::witness_factory::make<region_mut<T>>(data_ + (count ? start : 0), first, holders, count);
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// Row-major 2-D input shared by every thread, read by (row, col): what a DeviceBuffer2D one launch
// wrote is to the next. Reads go through span's read-only path; a checked build traps on a row
// or a column past the edge instead of reading the next row or another allocation.
template <class T>
class span2d {
  static_assert(std::is_const_v<T>, "carbide::span2d is read-only: write carbide::span2d<const T>");

 public:
  using element_type = T;
  CARBIDE_HOST_DEVICE std::size_t rows() const { return rows_; }
  CARBIDE_HOST_DEVICE std::size_t cols() const { return cols_; }
  CARBIDE_HOST_DEVICE std::size_t pitch() const { return pitch_; }  // elements between rows
  CARBIDE_DEVICE decltype(auto) operator()(std::size_t row, std::size_t col) const {
#if !defined(__CUDACC__)
    // Always checked on the CPU, naming the row and column.
    if (row >= rows_ || col >= cols_) cpu::detail::position_past_edge(elements_.data(), row, col, rows_, cols_);
    return elements_[row * pitch_ + col];
#elif defined(CARBIDE_CHECKED)
    // A column past the edge selects an index past the end, which the span refuses.
    return elements_[col < cols_ ? row * pitch_ + col : elements_.size()];
#else
    return elements_[row * pitch_ + col];
#endif
  }

 private:
  friend struct detail::view_access;
  span<T> elements_;  // rows × pitch
  std::size_t rows_ = 0, cols_ = 0, pitch_ = 0;
};

// Row-major 2-D output: each thread reaches only the element at its own (row, col).
template <class T>
class disjoint_span2d {
  static_assert(!std::is_const_v<T>, "a disjoint_span2d is an output: its element type is not const");

 public:
  using element_type = T;
  CARBIDE_HOST_DEVICE std::size_t rows() const { return rows_; }
  CARBIDE_HOST_DEVICE std::size_t cols() const { return cols_; }
  CARBIDE_HOST_DEVICE std::size_t pitch() const { return pitch_; }  // elements between rows
  T& operator[](std::size_t i) const CARBIDE_CUDA_VIEW_SUBSCRIPT;
  // Each form takes either 2-D witness: index_2d_transposed() places the thread's block at its
  // transposed coordinates, the forms then partition the view the same way.
  CARBIDE_DEVICE T* get_mut(const thread::index_2d_witness& own) const {
    return element_at(own.row(), own.col());
  }
  CARBIDE_DEVICE T* get_mut(const thread::index_2d_transposed_witness& own) const {
    return element_at(own.row(), own.col());
  }
  // The element an inner thread of a halo block stands on; nullptr in the halo and past the edges.
  template <unsigned Radius>
  CARBIDE_DEVICE T* get_mut(const thread::index_2d_halo_witness<Radius>& own) const {
    return own.inner() ? element_at(std::size_t(own.row()), std::size_t(own.col())) : nullptr;
  }
  // The Rows × Cols tile of the thread whose witness is (r, c); tests false past the edges.
  template <int Rows, int Cols>
  CARBIDE_DEVICE tile_mut<T, Rows, Cols> get_mut_tile(const thread::index_2d_witness& own) const {
    return tile_at<Rows, Cols>(own.row(), own.col());
  }
  template <int Rows, int Cols>
  CARBIDE_DEVICE tile_mut<T, Rows, Cols> get_mut_tile(const thread::index_2d_transposed_witness& own) const {
    return tile_at<Rows, Cols>(own.row(), own.col());
  }
  // The Rows × Cols elements of the thread at (r, c), dealt out in turn across its block (see
  // strided_tile_mut); tests false when its first element lies past the edges.
  template <int Rows, int Cols>
  CARBIDE_DEVICE strided_tile_mut<T, Rows, Cols> get_mut_strided_tile(
      const thread::index_2d_witness& own) const {
    return strided_tile_at<Rows, Cols>(own.row(), own.col());
  }
  template <int Rows, int Cols>
  CARBIDE_DEVICE strided_tile_mut<T, Rows, Cols> get_mut_strided_tile(
      const thread::index_2d_transposed_witness& own) const {
    return strided_tile_at<Rows, Cols>(own.row(), own.col());
  }

 private:
  friend struct detail::view_access;
  // The forms above, for the thread at global (row, col), whichever witness proved it.
  CARBIDE_DEVICE T* element_at(std::size_t row, std::size_t col) const {
    return row < rows_ && col < cols_ ? detail::non_null(data_ + row * pitch_ + col) : nullptr;
  }
  template <int Rows, int Cols>
  CARBIDE_DEVICE tile_mut<T, Rows, Cols> tile_at(std::size_t thread_row, std::size_t thread_col) const {
    const std::size_t row = thread_row * Rows, col = thread_col * Cols;
    const int rows = detail::count_within(row, rows_, Rows);
    const int cols = detail::count_within(col, cols_, Cols);
    return detail::witness_factory::make<tile_mut<T, Rows, Cols>>(
        data_ + (rows && cols ? row * pitch_ + col : 0), pitch_, rows, cols);
  }
  // The block's region starts at its first thread's (row, col) times the piece's extent; its
  // threads take the region's rows and columns in turn.
  template <int Rows, int Cols>
  CARBIDE_DEVICE strided_tile_mut<T, Rows, Cols> strided_tile_at(std::size_t thread_row, std::size_t thread_col) const {
    using Tile = strided_tile_mut<T, Rows, Cols>;
#if defined(__CUDACC__)
    return detail::witness_factory::make<Tile>(data_, rows_, cols_, pitch_,
                                               (thread_row - threadIdx.y) * Rows + threadIdx.y, std::size_t(blockDim.y),
                                               (thread_col - threadIdx.x) * Cols + threadIdx.x, std::size_t(blockDim.x));
#else
    const auto& t = cpu::detail::this_thread("carbide::disjoint_span2d::get_mut_strided_tile");
    return detail::witness_factory::make<Tile>(data_, rows_, cols_, pitch_,
                                               (thread_row - t.thread_idx.y) * Rows + t.thread_idx.y,
                                               std::size_t(t.block_dim.y),
                                               (thread_col - t.thread_idx.x) * Cols + t.thread_idx.x,
                                               std::size_t(t.block_dim.x));
#endif
  }
  T* data_ = nullptr;
  std::size_t rows_ = 0, cols_ = 0, pitch_ = 0;
};

// Shared read-modify-write at any index; every access is one atomic instruction.
template <class T>
class atomic_span {
 public:
  using element_type = T;
  CARBIDE_HOST_DEVICE std::size_t size() const { return size_; }
#if defined(__CUDACC__)
  CARBIDE_DEVICE T fetch_add(std::size_t i, T v) const { return atomicAdd(at(i), v); }
  CARBIDE_DEVICE T fetch_min(std::size_t i, T v) const { return atomicMin(at(i), v); }
  CARBIDE_DEVICE T fetch_max(std::size_t i, T v) const { return atomicMax(at(i), v); }
  CARBIDE_DEVICE T exchange(std::size_t i, T v) const { return atomicExch(at(i), v); }
  // Returns the value found; the swap happened when it equals `expected`.
  CARBIDE_DEVICE T compare_exchange(std::size_t i, T expected, T desired) const {
    return atomicCAS(at(i), expected, desired);
  }
  CARBIDE_DEVICE T load(std::size_t i) const { return *static_cast<volatile T*>(at(i)); }
#else
  // std::atomic_ref in the runtime, for the element types CUDA has atomics for; any other type
  // compiles (a host program may name it) and fails the launch that reaches it.
  CARBIDE_DEVICE T fetch_add(std::size_t i, T v) const {
    if constexpr (cpu::detail::has_atomics<T>) return cpu::detail::atomic_fetch_add(at(i), v);
    else cpu::detail::unsupported_atomic("carbide::atomic_span::fetch_add", sizeof(T));
  }
  CARBIDE_DEVICE T fetch_min(std::size_t i, T v) const {
    if constexpr (cpu::detail::has_atomics<T>) return cpu::detail::atomic_fetch_min(at(i), v);
    else cpu::detail::unsupported_atomic("carbide::atomic_span::fetch_min", sizeof(T));
  }
  CARBIDE_DEVICE T fetch_max(std::size_t i, T v) const {
    if constexpr (cpu::detail::has_atomics<T>) return cpu::detail::atomic_fetch_max(at(i), v);
    else cpu::detail::unsupported_atomic("carbide::atomic_span::fetch_max", sizeof(T));
  }
  CARBIDE_DEVICE T exchange(std::size_t i, T v) const {
    if constexpr (cpu::detail::has_atomics<T>) return cpu::detail::atomic_exchange(at(i), v);
    else cpu::detail::unsupported_atomic("carbide::atomic_span::exchange", sizeof(T));
  }
  // Returns the value found; the swap happened when it equals `expected`.
  CARBIDE_DEVICE T compare_exchange(std::size_t i, T expected, T desired) const {
    if constexpr (cpu::detail::has_atomics<T>) return cpu::detail::atomic_compare_exchange(at(i), expected, desired);
    else cpu::detail::unsupported_atomic("carbide::atomic_span::compare_exchange", sizeof(T));
  }
  CARBIDE_DEVICE T load(std::size_t i) const {
    if constexpr (cpu::detail::has_atomics<T>) return cpu::detail::atomic_load(at(i));
    else cpu::detail::unsupported_atomic("carbide::atomic_span::load", sizeof(T));
  }
#endif

 private:
  CARBIDE_DEVICE T* at(std::size_t i) const {
#if defined(__CUDACC__) && defined(CARBIDE_CHECKED)
    if (i >= size_) detail::fail_check();
#elif !defined(__CUDACC__)
    if (i >= size_) cpu::detail::index_past_end(data_, i, size_);
#endif
    return data_ + i;
  }
  friend struct detail::view_access;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

namespace detail {

// first, first + stride, … below end, each as a Witness: a thread's grid-stride indexes
// (thread::grid_stride) or a block's (block::grid_stride).
template <class Witness>
class stride_range {
 public:
  class iterator {
   public:
    CARBIDE_DEVICE Witness operator*() const { return witness_factory::make<Witness>(index_); }
    CARBIDE_DEVICE iterator& operator++() {
      index_ += stride_;
      return *this;
    }
    CARBIDE_DEVICE bool operator!=(const iterator& end) const { return index_ < end.index_; }

   private:
    friend class stride_range;
    CARBIDE_DEVICE iterator(std::size_t index, std::size_t stride) : index_(index), stride_(stride) {}
    std::size_t index_, stride_;
  };
  CARBIDE_DEVICE iterator begin() const { return iterator(first_, stride_); }
  CARBIDE_DEVICE iterator end() const { return iterator(end_, 0); }

 private:
  friend struct witness_factory;
  CARBIDE_DEVICE stride_range(std::size_t first, std::size_t stride, std::size_t end)
      : first_(first), stride_(stride), end_(end) {}
  std::size_t first_, stride_, end_;
};

}  // namespace detail

namespace thread {

// The indexes a thread owns in a grid-stride loop, each as a witness get_mut accepts.
using grid_stride_range = detail::stride_range<index_1d_witness>;

template <class View>
CARBIDE_DEVICE grid_stride_range grid_stride(const View& view) {
#if defined(__CUDACC__)
  return detail::witness_factory::make<grid_stride_range>(std::size_t(blockIdx.x) * blockDim.x + threadIdx.x,
                                                          std::size_t(gridDim.x) * blockDim.x, view.size());
#else
  const auto& t = cpu::detail::this_thread("carbide::thread::grid_stride");
  return detail::witness_factory::make<grid_stride_range>(std::size_t(t.block_idx.x) * t.block_dim.x + t.thread_idx.x,
                                                          std::size_t(t.grid_dim.x) * t.block_dim.x, view.size());
#endif
}

}  // namespace thread

namespace block {

// The indexes 0 … count − 1 dealt out to the blocks of the grid in turn (block b of G gets b,
// b + G, …; blocks counted x fastest), each as a witness the leader and region forms accept:
// `for (auto&& row : carbide::block::grid_stride(rows))`. Every thread of a block runs the same
// iterations, so the loop may hold block::sync() when `count` is the same for the whole block.
using grid_stride_range = detail::stride_range<thread::block_index_witness>;

CARBIDE_DEVICE grid_stride_range grid_stride(std::size_t count) {
#if defined(__CUDACC__)
  return detail::witness_factory::make<grid_stride_range>(detail::flat_block_index(),
                                                          std::size_t(gridDim.x) * gridDim.y * gridDim.z, count);
#else
  const auto& t = cpu::detail::this_thread("carbide::block::grid_stride");
  return detail::witness_factory::make<grid_stride_range>(cpu::detail::flat_block_index(t),
                                                          std::size_t(t.grid_dim.x) * t.grid_dim.y * t.grid_dim.z, count);
#endif
}

}  // namespace block

namespace detail {
struct view_access {
  template <class View>
  static View make(typename View::element_type* data, std::size_t size) {
    View view;
    view.data_ = data;
    view.size_ = size;
    return view;
  }
  template <class T>
  static span2d<const T> make_read_2d(const T* data, std::size_t rows, std::size_t cols,
                                      std::size_t pitch) {
    span2d<const T> view;
    view.elements_ = make<span<const T>>(data, rows * pitch);
    view.rows_ = rows;
    view.cols_ = cols;
    view.pitch_ = pitch;
    return view;
  }
  template <class T>
  static disjoint_span2d<T> make_2d(T* data, std::size_t rows, std::size_t cols,
                                    std::size_t pitch) {
    disjoint_span2d<T> view;
    view.data_ = data;
    view.rows_ = rows;
    view.cols_ = cols;
    view.pitch_ = pitch;
    return view;
  }
  // The same view with its extents as 32-bit values (see narrow_extent).
  template <class View>
  CARBIDE_DEVICE static View narrowed(View view) {
    if constexpr (std::is_same_v<View, span2d<typename View::element_type>>) {
      view.elements_ = narrowed(view.elements_);
      view.rows_ = narrow_extent(view.rows_);
      view.cols_ = narrow_extent(view.cols_);
      view.pitch_ = narrow_extent(view.pitch_);
    } else if constexpr (std::is_same_v<View, disjoint_span2d<typename View::element_type>>) {
      view.rows_ = narrow_extent(view.rows_);
      view.cols_ = narrow_extent(view.cols_);
      view.pitch_ = narrow_extent(view.pitch_);
    } else {
      view.size_ = narrow_extent(view.size_);
    }
    return view;
  }
};

// What a kernel with `index_bits = 32` receives: each view with extents the compiler knows are
// 32-bit values (the launch checked that they are). Generated entry points only.
template <class View>
CARBIDE_DEVICE View narrow_extents(const View& view) {
  return view_access::narrowed(view);
}
}  // namespace detail

}  // namespace carbide

#include <carbide/block.hpp>
#include <carbide/warp.hpp>
