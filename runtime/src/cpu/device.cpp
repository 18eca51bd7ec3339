#include "device.hpp"

#include "engine.hpp"

#include <carbide/errors.hpp>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <limits>
#include <string>
#include <thread>

namespace carbide::cpu {

namespace {

constexpr std::size_t kAllocationAlignment = 256;  // as cuMemAlloc's

// CARBIDE_CPU_THREADS, else one a core: 1 runs the blocks in order on the calling thread, which a
// debugger follows most easily.
unsigned worker_count() {
  const char* value = std::getenv("CARBIDE_CPU_THREADS");
  if (value == nullptr || *value == '\0') return std::max(1u, std::thread::hardware_concurrency());
  char* end = nullptr;
  const unsigned long count = std::strtoul(value, &end, 10);
  if (end == value || *end != '\0' || count == 0 || count > 4096)
    throw Error(std::string("CARBIDE_CPU_THREADS=") + value + ": expected a number of worker threads from 1 to 4096");
  return unsigned(count);
}

}  // namespace

Device::Device() : workers_(worker_count()) {}

Device::~Device() = default;

DeviceLimits Device::limits() const {
  DeviceLimits limits;
  limits.name = "CPU (" + std::to_string(workers_) + (workers_ == 1 ? " thread)" : " threads)");
  // Any min_compute contract is met: the CPU form is plain C++, whatever the GPU code needs.
  limits.compute_capability = INT_MAX;
  limits.max_threads_per_block = 1024;
  limits.max_block = {1024, 1024, 64};
  limits.max_grid = {(std::uint64_t(1) << 31) - 1, 65535, 65535};
  limits.max_shared_per_block = 48 * 1024;
  // Whatever dynamic shared memory a launch asks for is host memory, allocated at the launch.
  limits.max_shared_per_block_optin = std::numeric_limits<std::uint64_t>::max();
  return limits;
}

carbide::detail::DevicePtr Device::allocate(std::size_t bytes) {
  const std::size_t rounded = (bytes + kAllocationAlignment - 1) / kAllocationAlignment * kAllocationAlignment;
  void* memory = rounded >= bytes ? std::aligned_alloc(kAllocationAlignment, rounded) : nullptr;
  if (memory == nullptr)
    throw Error("allocating " + std::to_string(bytes) + " bytes of CPU device memory: out of host memory");
  std::lock_guard lock(mutex_);
  allocations_.emplace(reinterpret_cast<std::uintptr_t>(memory), Allocation{bytes, nullptr});
  return reinterpret_cast<carbide::detail::DevicePtr>(memory);
}

void Device::release(carbide::detail::DevicePtr ptr) noexcept {
  {
    std::lock_guard lock(mutex_);
    allocations_.erase(std::uintptr_t(ptr));
  }
  std::free(reinterpret_cast<void*>(ptr));
}

ShadowCells* Device::shadow(std::uintptr_t begin, std::uintptr_t end, unsigned granule_shift) {
  std::lock_guard lock(mutex_);
  auto holder = allocations_.upper_bound(begin);
  if (holder == allocations_.begin()) return nullptr;
  --holder;
  Allocation& allocation = holder->second;
  if (end > holder->first + allocation.bytes) return nullptr;
  if (allocation.shadow == nullptr || allocation.shadow->granule_shift() > granule_shift)
    allocation.shadow = std::make_unique<ShadowCells>(holder->first, allocation.bytes, granule_shift);
  return allocation.shadow.get();
}

void Device::clear_shadows() {
  std::lock_guard lock(mutex_);
  for (auto& [start, allocation] : allocations_)
    if (allocation.shadow != nullptr) allocation.shadow->clear();
}

Engine& Device::engine() {
  std::lock_guard lock(mutex_);
  if (engine_ == nullptr) engine_ = std::make_unique<Engine>(*this);
  return *engine_;
}

}  // namespace carbide::cpu
