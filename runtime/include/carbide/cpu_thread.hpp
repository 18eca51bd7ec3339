// The CPU thread the calling OS thread runs, as the inline parts of <carbide/cpu.hpp> and of the
// vocabulary's host forms read it: with the checks off, a kernel's CPU form asks the runtime once
// for its thread and then pays a load and a test for each marker and recorded access.
#pragma once

#include <cstdint>

// A function whose result depends on nothing the caller can change, so that the compiler asks
// once per function body (see current_thread below).
#if defined(__GNUC__)
#define CARBIDE_CPU_CONST_FUNCTION __attribute__((const))
#else
#define CARBIDE_CPU_CONST_FUNCTION
#endif

namespace carbide::cpu {

class BlockRun;  // the engine's state of a running block (runtime/src/cpu)

namespace detail {

struct Coordinates {
  unsigned x, y, z;
};

// One CPU thread of a launch.
struct ThreadState {
  Coordinates thread_idx, block_idx, block_dim, grid_dim;
  unsigned local_index;  // (z · block_dim.y + y) · block_dim.x + x
  const char* file;      // the site at() gave last
  unsigned line;
  bool recording;        // accesses are recorded for the checks (CARBIDE_CPU_CHECKS)
  unsigned ticks_left;   // tick() asks the engine whether to stop when this reaches 0
  BlockRun* block;
};

// The CPU thread the calling OS thread runs now (a fiber's, or the plain loop's current one);
// null outside a CPU launch. Declared const, as glibc declares __errno_location: a kernel thread
// runs from start to end on one fiber (or in one block's loop), whose state stays where it is, so
// the answer never changes during a kernel body, and the compiler need not ask again after each
// store through the state, nor after a barrier.
ThreadState* current_thread() noexcept CARBIDE_CPU_CONST_FUNCTION;

// Stops the program, saying that `what` runs only on the device or inside a kernel launch.
[[noreturn]] void outside_launch(const char* what);

inline ThreadState& this_thread(const char* what) {
  ThreadState* thread = current_thread();
  if (thread == nullptr) outside_launch(what);
  return *thread;
}

}  // namespace detail
}  // namespace carbide::cpu
