// Stacks for the fibers that run a block's threads: one per thread of the largest block seen,
// mapped once and reused by every block a worker runs, each with a guard page below it so that
// a kernel overflowing its stack faults instead of writing into its neighbour's.
#pragma once

#include <boost/context/fiber.hpp>

#include <cstddef>
#include <vector>

namespace carbide::cpu {

class FiberStacks {
 public:
  // Big enough for the locals of real kernels (register tiles of a GEMM, local arrays) and the
  // engine's frames below them; only the pages a fiber touches are ever committed.
  static constexpr std::size_t kStackBytes = 256 * 1024;

  FiberStacks() = default;
  FiberStacks(const FiberStacks&) = delete;
  FiberStacks& operator=(const FiberStacks&) = delete;
  ~FiberStacks();

  // Stack `index`, mapped on first use. Throws Error when the system refuses the memory.
  boost::context::stack_context stack(std::size_t index);
  // True when [address, address + bytes) lies in one of the stacks handed out.
  bool holds(std::uintptr_t address, std::size_t bytes) const;

 private:
  std::vector<void*> mappings_;  // each kStackBytes plus the guard page below
};

// The StackAllocator boost::context::fiber takes: it hands out one pooled stack and frees
// nothing, since the pool owns the memory (and a fiber the engine abandons never frees it).
struct PooledStack {
  boost::context::stack_context stack;
  boost::context::stack_context allocate() const { return stack; }
  void deallocate(boost::context::stack_context&) const noexcept {}
};

// A fiber handle the engine can forget without unwinding the fiber: the threads of a failed block
// are left where they stand, their stacks recycled, as a trapped GPU block is left (see
// docs/decisions.md, "A failed CPU block is abandoned, not unwound"). boost's own destructor would
// unwind a suspended fiber by throwing through the kernel's frames.
class FiberHandle {
 public:
  FiberHandle() { new (&fiber_) boost::context::fiber(); }
  FiberHandle(const FiberHandle&) = delete;
  FiberHandle& operator=(const FiberHandle&) = delete;
  ~FiberHandle() {}  // NOLINT(modernize-use-equals-default): never destroys the fiber, see above

  boost::context::fiber& get() { return fiber_; }
  // Drops the handle's fiber, finished or not, without touching it.
  void forget() { new (&fiber_) boost::context::fiber(); }

 private:
  union {
    boost::context::fiber fiber_;
  };
};

}  // namespace carbide::cpu
