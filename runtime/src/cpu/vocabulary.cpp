// What the CPU form of device code calls (cpu.hpp) and what the vocabulary's host forms ask of
// the engine (cpu_vocabulary.hpp), on the current CPU thread.
#include "block_run.hpp"
#include "running_thread.hpp"

#include <carbide/device.hpp>

#include <atomic>
#include <cstring>

namespace carbide {

namespace cpu {

thread_local detail::ThreadState* running_thread = nullptr;

namespace detail {

ThreadState* current_thread() noexcept { return running_thread; }

void sync() {
  ThreadState& t = this_thread("carbide::block::sync");
  t.block->sync(t);
}

void shuffle(Shuffle kind, void* value, std::size_t bytes, unsigned operand) {
  ThreadState& t = this_thread("carbide::warp::shfl_down, shfl_up, shfl_xor, shfl or broadcast");
  const Collective collective = kind == Shuffle::Down  ? Collective::ShuffleDown
                                : kind == Shuffle::Up  ? Collective::ShuffleUp
                                : kind == Shuffle::Xor ? Collective::ShuffleXor
                                                       : Collective::ShuffleIndex;
  t.block->shuffle(t, collective, value, bytes, operand);
}

std::uint32_t vote(Vote kind, bool predicate) {
  ThreadState& t = this_thread("carbide::warp::ballot, any or all");
  const Collective collective = kind == Vote::Ballot ? Collective::Ballot
                                : kind == Vote::Any  ? Collective::Any
                                                     : Collective::All;
  return t.block->vote(t, collective, predicate);
}

void* shared_storage(unsigned site, std::size_t bytes) {
  ThreadState& t = this_thread("carbide::block::shared");
  return t.block->shared_storage(t, site, bytes);
}

void* dynamic_shared_storage(std::size_t* bytes) {
  return this_thread("carbide::block::dynamic_shared").block->dynamic_shared_storage(bytes);
}

namespace {

void record_atomic(const void* address, std::size_t bytes, bool writes) {
  ThreadState* t = running_thread;
  if (t != nullptr && t->recording)
    t->block->record(*t, writes ? Use::AtomicWrite : Use::AtomicRead, address, bytes, t->file, t->line);
}

template <class T>
T fetch_add(T* address, T value) {
  record_atomic(address, sizeof(T), true);
  return std::atomic_ref<T>(*address).fetch_add(value);
}

// CUDA's atomicMin and atomicMax: the CAS loop std::atomic_ref needs for them.
template <class T, class Better>
T fetch_better(T* address, T value, Better better) {
  record_atomic(address, sizeof(T), true);
  std::atomic_ref<T> element(*address);
  T found = element.load();
  while (better(value, found) && !element.compare_exchange_weak(found, value)) {
  }
  return found;
}

template <class T>
T exchange(T* address, T value) {
  record_atomic(address, sizeof(T), true);
  return std::atomic_ref<T>(*address).exchange(value);
}

template <class T>
T compare_exchange(T* address, T expected, T desired) {
  record_atomic(address, sizeof(T), true);
  std::atomic_ref<T>(*address).compare_exchange_strong(expected, desired);
  return expected;  // what was found, as atomicCAS returns it
}

template <class T>
T load(const T* address) {
  record_atomic(address, sizeof(T), false);
  return std::atomic_ref<T>(*const_cast<T*>(address)).load();
}

}  // namespace

#define CARBIDE_CPU_DEFINE_ATOMICS(T)                                                                    \
  T atomic_fetch_add(T* address, T value) { return fetch_add(address, value); }                          \
  T atomic_fetch_min(T* address, T value) {                                                              \
    return fetch_better(address, value, [](T a, T b) { return a < b; });                                 \
  }                                                                                                      \
  T atomic_fetch_max(T* address, T value) {                                                              \
    return fetch_better(address, value, [](T a, T b) { return a > b; });                                 \
  }                                                                                                      \
  T atomic_exchange(T* address, T value) { return exchange(address, value); }                            \
  T atomic_compare_exchange(T* address, T expected, T desired) {                                         \
    return compare_exchange(address, expected, desired);                                                 \
  }                                                                                                      \
  T atomic_load(const T* address) { return load(address); }
CARBIDE_CPU_DEFINE_ATOMICS(int)
CARBIDE_CPU_DEFINE_ATOMICS(unsigned)
CARBIDE_CPU_DEFINE_ATOMICS(long)
CARBIDE_CPU_DEFINE_ATOMICS(unsigned long)
CARBIDE_CPU_DEFINE_ATOMICS(long long)
CARBIDE_CPU_DEFINE_ATOMICS(unsigned long long)
CARBIDE_CPU_DEFINE_ATOMICS(float)
CARBIDE_CPU_DEFINE_ATOMICS(double)
#undef CARBIDE_CPU_DEFINE_ATOMICS

}  // namespace detail

// --- cpu.hpp ------------------------------------------------------------------------------------

namespace {
Use use_of(Access access) {
  switch (access) {
    case Access::Read: return Use::Read;
    case Access::Write: return Use::Write;
    case Access::ReadWrite: return Use::ReadWrite;
  }
  return Use::ReadWrite;
}
}  // namespace

void detail::record_access(ThreadState& thread, Access access, const void* address, std::size_t bytes,
                           const char* file, unsigned line) {
  thread.block->record(thread, use_of(access), address, bytes, file, line);
}

void detail::tick_slowly(ThreadState& thread) {
  thread.ticks_left = BlockRun::kTicksBetweenChecks;
  thread.block->tick();
}

void* memcpy(void* to, const void* from, std::size_t bytes, const char* file, unsigned line) {
  record(Access::Read, from, bytes, file, line);
  record(Access::Write, to, bytes, file, line);
  return std::memcpy(to, from, bytes);
}

void* memmove(void* to, const void* from, std::size_t bytes, const char* file, unsigned line) {
  record(Access::Read, from, bytes, file, line);
  record(Access::Write, to, bytes, file, line);
  return std::memmove(to, from, bytes);
}

void* memset(void* to, int value, std::size_t bytes, const char* file, unsigned line) {
  record(Access::Write, to, bytes, file, line);
  return std::memset(to, value, bytes);
}

}  // namespace cpu

}  // namespace carbide
