// The engine's side of cpu::detail::current_thread(): the variable it switches with each fiber.
// The runtime reads the variable itself, since its own code (a barrier's) spans a switch.
#pragma once

#include <carbide/cpu_thread.hpp>

namespace carbide::cpu {

extern thread_local detail::ThreadState* running_thread;

}  // namespace carbide::cpu
