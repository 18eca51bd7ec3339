// What the runtime's entry points (driver.cpp, events.cpp, graphs.cpp, module.cpp) call for a CPU
// context instead of the driver. A CPU stream runs its work at once, in order, on the calling
// thread; while it captures, it records the work instead, as a CUDA stream does.
#pragma once

#include <carbide/runtime.hpp>

#include <memory>

namespace carbide::cpu {

class Device;

// The CPU device of a CPU context; null for a GPU's.
Device* device_of(const Context& context);
// Throws Error unless `a` and `b` are both the CPU or both GPUs: the handles of one (a stream, an
// event, a graph) mean nothing to the other.
void require_same_kind(const char* what, const Context& a, const Context& b);
// The one CPU context's state, made on first use and shared while any Context holds it.
std::shared_ptr<carbide::detail::ContextState> cpu_context_state();

std::shared_ptr<void> create_stream();
void synchronize(const Stream& stream);
void copy(const Stream& stream, void* to, const void* from, std::size_t bytes);
void fill_zero(const Stream& stream, void* to, std::size_t bytes);

std::shared_ptr<void> create_event();
void record(const Stream& stream, const Event& event);
float elapsed_ms(const Event& start, const Event& end);

void begin_capture(const Stream& stream);
std::shared_ptr<void> end_capture(const Stream& stream);
// Queues the work of a graph end_capture made (its handle) on `stream`.
void replay(const void* graph, const Stream& stream);

// A kernel's CPU form over `config`'s grid, its arguments as cuLaunchKernel takes them: run now,
// or, while `stream` captures, copied into the graph.
void launch(const Stream& stream, ModuleEntry entry, const LaunchConfig& config, void* const* args);

}  // namespace carbide::cpu
