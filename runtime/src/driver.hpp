// The one place that includes <cuda.h>: the runtime's view of the driver API.
#pragma once

#include <carbide/runtime.hpp>

#include <cuda.h>

#include <memory>

namespace carbide::cpu {
class Device;
}  // namespace carbide::cpu

namespace carbide::detail {

// Throws DriverError naming `call` when the driver reports a failure, with `hint` (what the
// caller may have done wrong) after the driver's code when there is one.
void check(CUresult result, const char* call, const char* hint = "");

// A GPU's primary context, or the CPU (cpu set, no driver state): each runtime entry point asks
// cpu::device_of first and hands a CPU context's calls to the CPU backend (cpu/backend.hpp).
struct ContextState {
  int ordinal = 0;
  CUdevice device = 0;
  CUcontext context = nullptr;
  DeviceLimits limits;
  std::unique_ptr<cpu::Device> cpu;
  ~ContextState();
};

// The driver keeps a current context per host thread; every runtime entry point makes the
// caller's context current first, so programs may use several devices from one thread.
void make_current(const Context& context);

CUstream native(const Stream& stream);
CUevent native(const Event& event);

}  // namespace carbide::detail
