// Where a raw access outside the launch's buffers and the block's shared memory may still go:
// the calling thread's own storage (its stack: locals and parameters, on a fiber or on the
// worker's own stack) and, for reads, the program's static data (constant tables). Anything else
// (past a buffer's end, freed memory, another allocation) fails the launch at its line.
#pragma once

#include <cstddef>
#include <cstdint>

namespace carbide::cpu {

class FiberStacks;

// True when [address, address + bytes) lies in one of `stacks` or on the calling OS thread's
// own stack.
bool on_a_thread_stack(std::uintptr_t address, std::size_t bytes, const FiberStacks& stacks);
// True when [address, address + bytes) lies in a segment the program or a library loaded.
bool in_static_storage(std::uintptr_t address, std::size_t bytes);

}  // namespace carbide::cpu
