// The CPU engine as the device vocabulary's host forms reach it (DESIGN §11): the CPU thread the
// calling OS thread is running, and what needs the engine (the barrier, warp collectives, shared
// memory, atomics, the errors a check raises). <carbide/device.hpp>, block.hpp and warp.hpp
// include it outside nvcc; kernels and generated code call the vocabulary, never these.
#pragma once

#include <carbide/cpu.hpp>
#include <carbide/cpu_thread.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace carbide::cpu::detail {

// The block's place in its grid, x fastest, as the leader and region forms number blocks.
inline std::size_t flat_block_index(const ThreadState& t) {
  return (std::size_t(t.block_idx.z) * t.grid_dim.y + t.block_idx.y) * t.grid_dim.x + t.block_idx.x;
}

// An access the vocabulary makes itself (a span read, a chunk store), recorded at the current
// site; cpu::record for a raw access names its own.
inline void record_here(Access access, const void* address, std::size_t bytes) {
  ThreadState* thread = current_thread();
  if (thread != nullptr && thread->recording) record(access, address, bytes, thread->file, thread->line);
}

// Each stops the calling thread's launch with a KernelError at the current site. `view` is the
// data pointer of the view (or shared array) indexed, which the error names by parameter.
[[noreturn]] void index_past_end(const void* view, std::size_t index, std::size_t size);
[[noreturn]] void chunk_past_end(const void* view, std::size_t first, std::size_t count, std::size_t size);
[[noreturn]] void position_past_edge(const void* view, std::size_t row, std::size_t col, std::size_t rows,
                                     std::size_t cols);
// An index into one thread's piece (a chunk, a tile, a butterfly group) past its `count` elements.
[[noreturn]] void piece_index_past_end(const char* what, long long index, long long count);
[[noreturn]] void stride_not_power_of_two(const char* what, std::size_t stride);
[[noreturn]] void requirement_failed(const char* condition, const char* file, unsigned line, const char* function);
[[noreturn]] void unsupported_atomic(const char* what, std::size_t element_bytes);

// The barrier among the block's threads.
void sync();

// Warp collectives: every lane of the calling thread's warp meets here. `value` (of `bytes`) is
// the lane's own and is replaced by the one the lane receives.
enum class Shuffle : unsigned char { Down, Up, Xor, Index };
void shuffle(Shuffle kind, void* value, std::size_t bytes, unsigned operand);
enum class Vote : unsigned char { Ballot, Any, All };
std::uint32_t vote(Vote kind, bool predicate);

// The block's storage for the block::shared call site `site`, 16-byte aligned, the same for all
// its threads; and the launch's dynamic shared memory, its size in `bytes`.
void* shared_storage(unsigned site, std::size_t bytes);
void* dynamic_shared_storage(std::size_t* bytes);

// Atomics on the element types CUDA has atomics for (and their 64-bit `long` spellings), each
// recorded as an atomic access at the current site.
#define CARBIDE_CPU_ATOMICS(T)                                  \
  T atomic_fetch_add(T* address, T value);                      \
  T atomic_fetch_min(T* address, T value);                      \
  T atomic_fetch_max(T* address, T value);                      \
  T atomic_exchange(T* address, T value);                       \
  T atomic_compare_exchange(T* address, T expected, T desired); \
  T atomic_load(const T* address);
CARBIDE_CPU_ATOMICS(int)
CARBIDE_CPU_ATOMICS(unsigned)
CARBIDE_CPU_ATOMICS(long)
CARBIDE_CPU_ATOMICS(unsigned long)
CARBIDE_CPU_ATOMICS(long long)
CARBIDE_CPU_ATOMICS(unsigned long long)
CARBIDE_CPU_ATOMICS(float)
CARBIDE_CPU_ATOMICS(double)
#undef CARBIDE_CPU_ATOMICS

template <class T>
inline constexpr bool has_atomics =
    std::is_same_v<T, int> || std::is_same_v<T, unsigned> || std::is_same_v<T, long> ||
    std::is_same_v<T, unsigned long> || std::is_same_v<T, long long> || std::is_same_v<T, unsigned long long> ||
    std::is_same_v<T, float> || std::is_same_v<T, double>;

}  // namespace carbide::cpu::detail
