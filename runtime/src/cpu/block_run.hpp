// One block of a SIMT launch on a worker: its threads run as a plain loop when the kernel never
// synchronizes, else as fibers (boost::context), one per thread, that meet at block::sync() and
// at warp collectives. The block's shared memory, its segment (phase) for the race check, and the
// thread the worker runs now (running_thread.hpp) live here.
//
// A check that fails on a thread (a race, an index past the end, a timeout) stops the launch and
// leaves the block where its threads stand: the failing fiber jumps back to the block's scheduler
// and every fiber of the block is forgotten, its stack reused by the next block, without
// unwinding through kernel code (docs/decisions.md).
#pragma once

#include "fiber_stacks.hpp"
#include "launch.hpp"
#include "shadow.hpp"

#include <carbide/cpu_vocabulary.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace carbide::cpu {

class Engine;
class Worker;

enum class Collective : unsigned char { ShuffleDown, ShuffleUp, ShuffleXor, ShuffleIndex, Ballot, Any, All };

class BlockRun {
 public:
  // How often a thread's tick() asks whether to stop (a clock read and an atomic load).
  static constexpr unsigned kTicksBetweenChecks = 256;

  BlockRun(Engine& engine, Worker& worker);
  ~BlockRun();
  BlockRun(const BlockRun&) = delete;
  BlockRun& operator=(const BlockRun&) = delete;

  // Runs block `flat_block` of `launch`; a failure goes to the launch (Launch::fail).
  void run(Launch& launch, std::uint64_t flat_block);
  void clear_shadows();

  // What the vocabulary asks of the engine, on one of this block's threads.
  void sync(detail::ThreadState& thread);
  void shuffle(detail::ThreadState& thread, Collective kind, void* value, std::size_t bytes, unsigned operand);
  std::uint32_t vote(detail::ThreadState& thread, Collective kind, bool predicate);
  void* shared_storage(detail::ThreadState& thread, unsigned site, std::size_t bytes);
  void* dynamic_shared_storage(std::size_t* bytes);
  void record(detail::ThreadState& thread, Use use, const void* address, std::size_t bytes, const char* file,
              unsigned line);
  // From every kTicksBetweenChecks-th tick(): stops the thread once the launch is stopping or
  // past its deadline.
  void tick();

  // Stops the launch with the error `make()` builds; the calling thread never returns. The error
  // is built, and its temporaries gone, before the thread leaves its stack for good.
  template <class MakeError>
  [[noreturn]] void fail(MakeError make) {
    launch_->fail(std::make_exception_ptr(make()));
    leave();
  }

  Launch& launch() { return *launch_; }
  // The memory at `address` as the kernel names it: "c[1025]", "tile[37]".
  std::string name_address(std::uintptr_t address) const;
  // The name of the view (or shared array) whose first element is at `data`.
  std::string name_view(const void* data) const;

 private:
  enum class Status : unsigned char { NotStarted, Ready, AtBarrier, AtCollective, Returned };
  struct ThreadSlot;
  struct SiteStorage {
    unsigned site;
    std::size_t offset, bytes;
  };
  struct AlignedFree {
    void operator()(std::byte* memory) const;
  };

  void begin(Launch& launch, std::uint64_t flat_block);
  void prepare_shared_memory();
  void make_fiber(unsigned index);
  void run_fiber(unsigned index) noexcept;
  void run_threads_in_a_loop();
  void make_ready(unsigned index);
  unsigned next_ready();  // kScheduler when none is
  FiberHandle& handle(unsigned index);
  void enter(unsigned index);
  void switch_to(unsigned index);
  void arrived(boost::context::fiber&& caller);
  void yield();
  [[noreturn]] void leave();
  void check_stop();
  [[noreturn]] void stop_here();
  void open_segment();
  ThreadSlot& arrive(detail::ThreadState& thread, Status status, const char* what);
  void release_barrier();
  void release_warp(unsigned warp);
  void report_stuck_threads();

  std::string where(const ThreadSlot& slot) const;
  std::string threads_text() const;
  KernelError::Access position(const ThreadSlot& slot, KernelError::AccessKind kind) const;
  KernelError race_error(const Remembered& earlier, const Accessor& me, Use use, std::uintptr_t address) const;
  KernelError outside_error(const detail::ThreadState& thread, Use use, std::uintptr_t address, std::size_t bytes,
                            const char* file, unsigned line) const;
  KernelError stuck_error(const ThreadSlot& first) const;

  Engine& engine_;
  Worker& worker_;
  Launch* launch_ = nullptr;
  std::uint64_t flat_block_ = 0;
  Coordinates block_idx_{};
  unsigned threads_ = 0;
  bool fibers_ = false;    // the kernel synchronizes: a fiber per thread
  bool recording_ = false;
  std::uint32_t segment_ = 0;

  static constexpr unsigned kScheduler = ~0u;  // stands for the scheduler where a slot index goes
  std::unique_ptr<ThreadSlot[]> slots_;
  unsigned slot_capacity_ = 0;
  FiberHandle scheduler_;           // the scheduler's context while a thread runs
  unsigned running_ = kScheduler;   // the slot whose fiber runs now
  unsigned switching_from_ = kScheduler;
  bool left_ = false;     // a thread left the block: it failed or was stopped
  std::vector<unsigned> ready_;  // a ring of the slots to resume, each at most once
  unsigned ready_head_ = 0, ready_count_ = 0;
  unsigned at_barrier_ = 0;
  const ThreadSlot* barrier_ = nullptr;  // the first thread at the barrier
  bool barriers_differ_ = false;         // a thread waits at another barrier than the first
  std::vector<unsigned> at_collective_;  // per warp
  std::vector<std::byte> exchange_;      // a warp's values, during a shuffle

  std::unique_ptr<std::byte[], AlignedFree> arena_;  // static sites, then the dynamic part
  std::size_t arena_bytes_ = 0, static_capacity_ = 0, dynamic_bytes_ = 0;
  std::vector<SiteStorage> sites_;  // the sites this block reached, in arena order
  std::size_t static_used_ = 0, static_counted_ = 0;
  std::unique_ptr<ShadowCells> static_shadow_, dynamic_shadow_;
};

}  // namespace carbide::cpu
