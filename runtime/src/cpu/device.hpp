// The CPU backend of a context (Context::create_cpu): "device" memory in host memory, the
// limits contracts are validated against, and the engine that runs launches, started on the
// first one.
#pragma once

#include "shadow.hpp"

#include <carbide/launch.hpp>
#include <carbide/runtime.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

namespace carbide::cpu {

class Engine;

class Device {
 public:
  Device();
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // The worker threads a launch runs on (the calling thread among them): CARBIDE_CPU_THREADS, else
  // one per core, fixed when the CPU context is made.
  unsigned workers() const { return workers_; }
  DeviceLimits limits() const;

  // Host memory, 256-byte aligned as cuMemAlloc's.
  carbide::detail::DevicePtr allocate(std::size_t bytes);
  void release(carbide::detail::DevicePtr ptr) noexcept;

  // The race check's shadow of the allocation holding [begin, end), with granules of at most
  // 2^granule_shift bytes (made, or made finer, here); null when no allocation holds that range.
  ShadowCells* shadow(std::uintptr_t begin, std::uintptr_t end, unsigned granule_shift);
  void clear_shadows();

  Engine& engine();

 private:
  struct Allocation {
    std::size_t bytes;
    std::unique_ptr<ShadowCells> shadow;
  };
  unsigned workers_;
  std::mutex mutex_;
  std::map<std::uintptr_t, Allocation> allocations_;  // by start address
  std::unique_ptr<Engine> engine_;
};

}  // namespace carbide::cpu
