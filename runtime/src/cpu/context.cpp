// The CPU context (Context::create_cpu): one, shared by every Context that asks for it, as a GPU's
// primary context is.
#include "backend.hpp"
#include "device.hpp"

#include "../driver.hpp"

#include <mutex>

namespace carbide {

namespace cpu {

std::shared_ptr<carbide::detail::ContextState> cpu_context_state() {
  static std::mutex mutex;
  static std::weak_ptr<carbide::detail::ContextState> shared;
  std::lock_guard lock(mutex);
  if (auto state = shared.lock()) return state;
  auto state = std::make_shared<carbide::detail::ContextState>();
  state->ordinal = Context::kCpuOrdinal;
  state->cpu = std::make_unique<Device>();
  state->limits = state->cpu->limits();
  shared = state;
  return state;
}

}  // namespace cpu

Context Context::create_cpu() { return Context(cpu::cpu_context_state()); }

bool Context::is_cpu() const { return state_->cpu != nullptr; }

}  // namespace carbide
