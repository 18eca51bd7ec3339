// The driver entry points the runtime uses, resolved from libcuda.so.1 at run time. Loading it
// lazily (instead of linking it) lets a Carbide program start on a machine without a driver
// and report that as a DriverError, the way the CUDA runtime itself behaves.
#pragma once

#include <cuda.h>

#include <string>

#define CARBIDE_DRIVER_FUNCTIONS(X)                                                       \
  X(cuInit) X(cuGetErrorName) X(cuDeviceGet) X(cuDeviceGetCount) X(cuDeviceGetName)       \
  X(cuDeviceGetAttribute) X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease)        \
  X(cuCtxSetCurrent) X(cuMemAlloc) X(cuMemFree) X(cuMemHostAlloc) X(cuMemFreeHost)        \
  X(cuMemcpyHtoDAsync) X(cuMemcpyDtoHAsync) X(cuMemcpyDtoDAsync) X(cuMemsetD8Async)       \
  X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamSynchronize) X(cuStreamWaitEvent)        \
  X(cuEventCreate) X(cuEventDestroy) X(cuEventRecord) X(cuEventSynchronize)               \
  X(cuEventElapsedTime) X(cuStreamBeginCapture) X(cuStreamEndCapture) X(cuGraphDestroy)   \
  X(cuGraphInstantiateWithFlags) X(cuGraphLaunch) X(cuGraphExecDestroy)                   \
  X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction) X(cuModuleGetGlobal)       \
  X(cuFuncGetAttribute) X(cuFuncSetAttribute) X(cuLaunchKernel) X(cuTensorMapEncodeTiled)

namespace carbide::detail {

// cuda.h maps several names to versioned symbols (cuMemAlloc -> cuMemAlloc_v2); declaring the
// members through the same macros keeps each pointer's type and symbol in step. Graphs are
// instantiated through cuGraphInstantiateWithFlags by name: cuda.h maps cuGraphInstantiate to it,
// while libcuda's own cuGraphInstantiate symbol is the older five-argument form.
struct DriverApi {
#define CARBIDE_DECLARE_DRIVER_FUNCTION(name) decltype(&::name) name = nullptr;
  CARBIDE_DRIVER_FUNCTIONS(CARBIDE_DECLARE_DRIVER_FUNCTION)
#undef CARBIDE_DECLARE_DRIVER_FUNCTION
};

// The loaded driver, or nullptr with `why` set when there is none.
const DriverApi* try_driver(std::string* why = nullptr);
// The loaded driver; throws DriverError when there is none.
const DriverApi& driver();

}  // namespace carbide::detail
