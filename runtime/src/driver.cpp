#include "driver.hpp"

#include "cpu/backend.hpp"
#include "cpu/device.hpp"
#include "driver_api.hpp"

namespace carbide {
namespace detail {

void check(CUresult result, const char* call, const char* hint) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  if (driver().cuGetErrorName(result, &name) != CUDA_SUCCESS || name == nullptr) name = "CUDA_ERROR_UNKNOWN";
  throw DriverError(static_cast<int>(result), name, call, hint);
}

ContextState::~ContextState() {
  if (context != nullptr) driver().cuDevicePrimaryCtxRelease(device);
}

void make_current(const Context& context) {
  check(driver().cuCtxSetCurrent(context.state()->context), "cuCtxSetCurrent");
}

CUstream native(const Stream& stream) { return static_cast<CUstream>(stream.native_handle()); }

namespace {

int attribute(CUdevice device, CUdevice_attribute which) {
  int value = 0;
  check(driver().cuDeviceGetAttribute(&value, which, device), "cuDeviceGetAttribute");
  return value;
}

DeviceLimits read_limits(CUdevice device) {
  DeviceLimits limits;
  char name[256] = {};
  check(driver().cuDeviceGetName(name, sizeof name, device), "cuDeviceGetName");
  limits.name = name;
  limits.compute_capability =
      attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) * 10 +
      attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  limits.max_threads_per_block = attribute(device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  limits.max_block = {std::uint64_t(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)),
                      std::uint64_t(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)),
                      std::uint64_t(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z))};
  limits.max_grid = {std::uint64_t(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)),
                     std::uint64_t(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)),
                     std::uint64_t(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z))};
  limits.max_shared_per_block = attribute(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  limits.max_shared_per_block_optin =
      attribute(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  return limits;
}

}  // namespace

DevicePtr allocate(const Context& context, std::size_t bytes) {
  if (bytes == 0) return 0;
  if (cpu::Device* device = cpu::device_of(context)) return device->allocate(bytes);
  make_current(context);
  CUdeviceptr ptr = 0;
  check(driver().cuMemAlloc(&ptr, bytes), "cuMemAlloc");
  return ptr;
}

void release(const Context& context, DevicePtr ptr) noexcept {
  if (cpu::Device* device = cpu::device_of(context)) return device->release(ptr);
  if (driver().cuCtxSetCurrent(context.state()->context) == CUDA_SUCCESS) driver().cuMemFree(ptr);
}

void* allocate_pinned(const Context& context, std::size_t bytes) {
  if (bytes == 0) return nullptr;
  if (cpu::Device* device = cpu::device_of(context))  // host memory is what a CPU copy reads anyway
    return reinterpret_cast<void*>(device->allocate(bytes));
  make_current(context);
  void* ptr = nullptr;
  // Portable: page-locked for every context, so a stream of any device copies it directly.
  check(driver().cuMemHostAlloc(&ptr, bytes, CU_MEMHOSTALLOC_PORTABLE), "cuMemHostAlloc");
  return ptr;
}

void release_pinned(const Context& context, void* ptr) noexcept {
  if (cpu::Device* device = cpu::device_of(context)) return device->release(reinterpret_cast<DevicePtr>(ptr));
  if (driver().cuCtxSetCurrent(context.state()->context) == CUDA_SUCCESS)
    driver().cuMemFreeHost(ptr);
}

void copy_to_device_async(const Stream& stream, DevicePtr dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  if (cpu::device_of(stream.context())) return cpu::copy(stream, reinterpret_cast<void*>(dst), src, bytes);
  make_current(stream.context());
  check(driver().cuMemcpyHtoDAsync(dst, src, bytes, native(stream)), "cuMemcpyHtoDAsync");
}

void copy_to_host_async(const Stream& stream, void* dst, DevicePtr src, std::size_t bytes) {
  if (bytes == 0) return;
  if (cpu::device_of(stream.context())) return cpu::copy(stream, dst, reinterpret_cast<const void*>(src), bytes);
  make_current(stream.context());
  check(driver().cuMemcpyDtoHAsync(dst, src, bytes, native(stream)), "cuMemcpyDtoHAsync");
}

// Copies through ordinary host memory synchronise: it is the caller's and may change (or be
// read) as soon as we return.
void copy_to_device(const Stream& stream, DevicePtr dst, const void* src, std::size_t bytes) {
  copy_to_device_async(stream, dst, src, bytes);
  stream.synchronize();
}

void copy_to_host(const Stream& stream, void* dst, DevicePtr src, std::size_t bytes) {
  copy_to_host_async(stream, dst, src, bytes);
  stream.synchronize();
}

// Ordered on the stream like a launch; nothing on the host to wait for.
void copy_on_device(const Stream& stream, DevicePtr dst, DevicePtr src, std::size_t bytes) {
  if (bytes == 0 || dst == src) return;
  if (cpu::device_of(stream.context()))
    return cpu::copy(stream, reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), bytes);
  make_current(stream.context());
  check(driver().cuMemcpyDtoDAsync(dst, src, bytes, native(stream)), "cuMemcpyDtoDAsync");
}

void fill_zero(const Stream& stream, DevicePtr dst, std::size_t bytes) {
  if (bytes == 0) return;
  if (cpu::device_of(stream.context())) return cpu::fill_zero(stream, reinterpret_cast<void*>(dst), bytes);
  make_current(stream.context());
  check(driver().cuMemsetD8Async(dst, 0, bytes, native(stream)), "cuMemsetD8Async");
}

}  // namespace detail

namespace {
// The number of devices, or 0 with the reason there are none.
int count_devices(std::string* why) {
  const detail::DriverApi* api = detail::try_driver(why);
  if (api == nullptr) return 0;
  if (CUresult result = api->cuInit(0); result != CUDA_SUCCESS) {
    // A driver installed on a machine without a GPU (or with every GPU hidden) fails here.
    if (result == CUDA_ERROR_NO_DEVICE) {
      *why = "the CUDA driver found no GPU (CUDA_ERROR_NO_DEVICE)";
      return 0;
    }
    const char* name = nullptr;
    api->cuGetErrorName(result, &name);
    *why = std::string("the CUDA driver did not initialise: ") + (name ? name : "unknown error");
    return 0;
  }
  int count = 0;
  if (api->cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
    *why = "the CUDA driver found no GPU";
    return 0;
  }
  return count;
}
}  // namespace

int Context::device_count() {
  std::string why;
  return count_devices(&why);
}

std::string Context::unavailable_reason() {
  std::string why;
  count_devices(&why);
  return why;
}

Context Context::create(int ordinal) {
  // Asked first, so that a machine without a driver or a GPU gets one sentence saying so
  // (NoDeviceError) rather than the failure of whichever driver call came first.
  std::string why;
  const int count = count_devices(&why);
  if (count == 0 || ordinal < 0 || ordinal >= count) throw NoDeviceError(ordinal, count, why);
  auto state = std::make_shared<detail::ContextState>();
  state->ordinal = ordinal;
  detail::check(detail::driver().cuDeviceGet(&state->device, ordinal), "cuDeviceGet");
  detail::check(detail::driver().cuDevicePrimaryCtxRetain(&state->context, state->device),
                "cuDevicePrimaryCtxRetain");
  detail::check(detail::driver().cuCtxSetCurrent(state->context), "cuCtxSetCurrent");
  state->limits = detail::read_limits(state->device);
  return Context(std::move(state));
}

const DeviceLimits& Context::limits() const { return state_->limits; }
int Context::ordinal() const { return state_->ordinal; }

Stream Context::default_stream() const { return Stream(*this, nullptr); }

Stream Context::create_stream() const {
  if (cpu::device_of(*this)) return Stream(*this, cpu::create_stream());
  detail::make_current(*this);
  CUstream stream = nullptr;
  detail::check(detail::driver().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  auto owner = state_;  // the stream must die before its context
  return Stream(*this, std::shared_ptr<void>(stream, [owner](void* s) {
                  detail::driver().cuStreamDestroy(static_cast<CUstream>(s));
                }));
}

void Stream::synchronize() const {
  if (cpu::device_of(context_)) return cpu::synchronize(*this);
  detail::make_current(context_);
  detail::check(detail::driver().cuStreamSynchronize(detail::native(*this)), "cuStreamSynchronize");
}

}  // namespace carbide
