// The host runtime over the CUDA driver API, or over host memory and the CPU engine for a CPU
// context (DESIGN §11). It never includes <cuda.h>: driver handles stay opaque here, so a program
// that includes Carbide needs no CUDA headers to compile.
#pragma once

#include <carbide/cpu.hpp>
#include <carbide/device.hpp>
#include <carbide/errors.hpp>
#include <carbide/launch.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace carbide {

namespace detail {
struct ContextState;
using DevicePtr = std::uint64_t;
}  // namespace detail

class Stream;
class Event;
class Graph;

// A CUDA device with its primary context, or the CPU (create_cpu). Copies share the context.
class Context {
 public:
  // GPU `ordinal`; throws NoDeviceError where there is none.
  static Context create(int ordinal);
  // The CPU: buffers in host memory, kernels run by the CPU forms the translator emits, with the
  // run-time checks of DESIGN §11. Every call shares one CPU context.
  static Context create_cpu();
  // GPU 0 where there is one, else the CPU, saying so on stderr. CARBIDE_DEVICE=cpu, gpu or gpu:N
  // forces the choice (gpu where there is none throws NoDeviceError).
  static Context create_default();
  bool is_cpu() const;
  Stream default_stream() const;
  Stream create_stream() const;
  Event create_event() const;
  const DeviceLimits& limits() const;
  // The GPU's ordinal; kCpuOrdinal for the CPU, which no GPU has, so that the launch checks refuse
  // a CPU buffer on a GPU stream and the other way round.
  int ordinal() const;
  static constexpr int kCpuOrdinal = -1;
  // The number of CUDA devices; 0 (not an error) where there is no driver or no GPU.
  static int device_count();
  // Why device_count() is 0 ("" when it is not), for messages and skipped tests.
  static std::string unavailable_reason();

  const std::shared_ptr<detail::ContextState>& state() const { return state_; }

 private:
  explicit Context(std::shared_ptr<detail::ContextState> state) : state_(std::move(state)) {}
  std::shared_ptr<detail::ContextState> state_;
};

class Stream {
 public:
  void synchronize() const;
  // Marks this point of the stream in `event`, which completes once the work queued before it
  // has run. Record on a stream of the event's device.
  void record(Event& event) const;
  // Work queued on this stream from now on waits until `event` completes: two streams ordered
  // without the host waiting. The event may come from any stream, of any device.
  void wait(const Event& event) const;
  // Records the work queued on this stream from now on, instead of running it, until
  // end_capture. Only work that leaves the host free records: launches, copy_from and the
  // *_async copies. Allocate before capturing; a synchronous copy or synchronize() fails and
  // spoils the capture. Throws Error on the default stream, which cannot be captured.
  void begin_capture() const;
  // Ends this stream's capture; the Graph replays what it recorded.
  Graph end_capture() const;
  // A stream made elsewhere (a CUstream or cudaStream_t of `context`'s device, null for the
  // default stream), for launching on it; the Stream does not destroy it, so keep it alive
  // while the Stream is used.
  static Stream borrow(const Context& context, void* native_stream) {
    return Stream(context, std::shared_ptr<void>(native_stream, [](void*) {}));
  }
  // The CUstream (a cudaStream_t to the CUDA runtime and libraries such as cuBLAS).
  void* native_handle() const { return handle_.get(); }
  const Context& context() const { return context_; }

 private:
  friend class Context;
  Stream(Context context, std::shared_ptr<void> handle)
      : context_(std::move(context)), handle_(std::move(handle)) {}
  Context context_;
  std::shared_ptr<void> handle_;  // CUstream; null for the default stream
};

// A point in a stream's work (Stream::record): other streams wait for it, the host waits for
// it, and two of them time the work between them. Copies share the event.
class Event {
 public:
  // Waits on the host until the work recorded before the event has run.
  void synchronize() const;
  // The milliseconds between two events recorded on streams of one device; waits for `end`.
  static float elapsed_ms(const Event& start, const Event& end);
  void* native_handle() const { return handle_.get(); }
  const Context& context() const { return context_; }

 private:
  friend class Context;
  Event(Context context, std::shared_ptr<void> handle)
      : context_(std::move(context)), handle_(std::move(handle)) {}
  Context context_;
  std::shared_ptr<void> handle_;  // CUevent
};

// Work captured from a stream (Stream::end_capture), run again with one launch: the same
// kernels with the same arguments and the same copies, so every buffer and pinned buffer it uses
// must outlive it; change their contents between launches, not the buffers. Copies share the
// graph.
class Graph {
 public:
  // Queues all of the graph's work on `stream`, a stream of the graph's device.
  void launch(const Stream& stream) const;
  const Context& context() const { return context_; }

 private:
  friend class Stream;
  Graph(Context context, std::shared_ptr<void> handle)
      : context_(std::move(context)), handle_(std::move(handle)) {}
  Context context_;
  std::shared_ptr<void> handle_;  // CUgraphExec
};

namespace detail {
// count × element_bytes, or an Error naming `what` when the product does not fit in 64 bits.
std::size_t checked_bytes(const char* what, std::size_t count, std::size_t element_bytes);
DevicePtr allocate(const Context& context, std::size_t bytes);
void release(const Context& context, DevicePtr ptr) noexcept;
void* allocate_pinned(const Context& context, std::size_t bytes);
void release_pinned(const Context& context, void* ptr) noexcept;
void copy_to_device(const Stream& stream, DevicePtr dst, const void* src, std::size_t bytes);
void copy_to_host(const Stream& stream, void* dst, DevicePtr src, std::size_t bytes);
// Queued on the stream; they return before the copy has run.
void copy_to_device_async(const Stream& stream, DevicePtr dst, const void* src, std::size_t bytes);
void copy_to_host_async(const Stream& stream, void* dst, DevicePtr src, std::size_t bytes);
void copy_on_device(const Stream& stream, DevicePtr dst, DevicePtr src, std::size_t bytes);
void fill_zero(const Stream& stream, DevicePtr dst, std::size_t bytes);
// Throws unless `count` equals `expected` and both buffers live on the stream's device.
void check_copy(const char* what, std::size_t expected, std::size_t count, int stream_device,
                int to_device, int from_device);
// Throws when `bytes` at `dst` and at `src` overlap without being the same memory (two slices
// of one buffer): the driver's copies are undefined there.
void check_copy_ranges(const char* what, DevicePtr dst, DevicePtr src, std::size_t bytes);
// Throws unless the host buffer holds `device_count` elements and the device buffer lives on
// the stream's device.
void check_host_copy(const char* what, std::size_t device_count, std::size_t host_count,
                     int stream_device, int buffer_device);
// Throws unless [offset, offset + count) lies within `size` elements and starts where a view
// may start (see DeviceBuffer::slice).
void check_slice(std::size_t offset, std::size_t count, std::size_t size,
                 std::size_t element_bytes);
// Throws unless `count` elements at `ptr` may be a view: not null, not wrapping past the end of
// the address space, and starting where a view may start.
void check_borrow(DevicePtr ptr, std::size_t count, std::size_t element_bytes);
}  // namespace detail

// Page-locked host memory holding `size()` elements of T: what copies that do not wait
// (DeviceBuffer::copy_from_host_async, to_host_async) read and write, at the bus's full speed.
// Portable: a stream of any device may copy to or from it. Move-only: one owner frees it.
template <class T>
class PinnedBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "pinned buffers hold trivially copyable values");

 public:
  // The values are unspecified until written.
  static PinnedBuffer uninitialized(const Context& context, std::size_t size) {
    return PinnedBuffer(context, size);
  }

  PinnedBuffer(PinnedBuffer&& other) noexcept
      : context_(std::move(other.context_)), data_(other.data_), size_(other.size_) {
    other.data_ = nullptr;
    other.size_ = 0;
  }
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      context_ = std::move(other.context_);
      data_ = other.data_;
      size_ = other.size_;
      other.data_ = nullptr;
      other.size_ = 0;
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer() { reset(); }

  std::size_t size() const { return size_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  PinnedBuffer(Context context, std::size_t size)
      : context_(std::move(context)),
        data_(static_cast<T*>(detail::allocate_pinned(
            context_, detail::checked_bytes("PinnedBuffer", size, sizeof(T))))),
        size_(size) {}
  void reset() noexcept {
    if (data_ != nullptr) detail::release_pinned(context_, data_);
    data_ = nullptr;
  }

  Context context_;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// Device memory holding `size()` elements of T. Move-only: one owner frees it. A borrowed
// buffer or a slice is a view of memory owned elsewhere and frees nothing: the owner must keep
// that memory alive while the view (or work queued with it) uses it.
template <class T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "device buffers hold trivially copyable values");

 public:
  static DeviceBuffer uninitialized(const Stream& stream, std::size_t size) {
    return DeviceBuffer(stream.context(), size);
  }
  static DeviceBuffer zeroed(const Stream& stream, std::size_t size) {
    DeviceBuffer buffer(stream.context(), size);
    detail::fill_zero(stream, buffer.ptr_, buffer.bytes());
    return buffer;
  }
  static DeviceBuffer from_host(const Stream& stream, const T* data, std::size_t size) {
    DeviceBuffer buffer(stream.context(), size);
    detail::copy_to_device(stream, buffer.ptr_, data, buffer.bytes());
    return buffer;
  }
  static DeviceBuffer from_host(const Stream& stream, const std::vector<T>& host) {
    return from_host(stream, host.data(), host.size());
  }
  // `size` elements of `context`'s device at `device_ptr`, allocated elsewhere (cuMemAlloc,
  // cudaMalloc, another library): launches and copies take it like any buffer, and it frees
  // nothing. The start must be 16-byte aligned, as allocations are.
  static DeviceBuffer borrow(const Context& context, detail::DevicePtr device_ptr,
                             std::size_t size) {
    detail::check_borrow(device_ptr, size, sizeof(T));
    return DeviceBuffer(context, device_ptr, size);
  }
  static DeviceBuffer borrow(const Context& context, T* device_ptr, std::size_t size) {
    return borrow(context, reinterpret_cast<detail::DevicePtr>(device_ptr), size);
  }

  DeviceBuffer(DeviceBuffer&& other) noexcept
      : context_(std::move(other.context_)),
        ptr_(other.ptr_),
        size_(other.size_),
        owner_(other.owner_) {
    other.ptr_ = 0;
    other.size_ = 0;
  }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      context_ = std::move(other.context_);
      ptr_ = other.ptr_;
      size_ = other.size_;
      owner_ = other.owner_;
      other.ptr_ = 0;
      other.size_ = 0;
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { reset(); }

  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }  // checked when allocated or borrowed
  // The device address (a CUdeviceptr), for the driver API.
  detail::DevicePtr device_ptr() const { return ptr_; }
  // The device address typed, for CUDA libraries (cuBLAS, cuFFT); never dereference it on the
  // host.
  T* device_data() { return reinterpret_cast<T*>(ptr_); }
  const T* device_data() const { return reinterpret_cast<const T*>(ptr_); }
  const Context& context() const { return context_; }

  // Elements [offset, offset + count) as a buffer of their own that frees nothing: a launch
  // argument like any buffer (the aliasing check sees exactly its range), valid while this
  // buffer is. It must start 16-byte aligned (kernels move whole chunks of up to 16 bytes from
  // a view's start): at a multiple of 4 floats, 2 doubles. Throws Error past the end or off
  // that boundary.
  DeviceBuffer slice(std::size_t offset, std::size_t count) {
    detail::check_slice(offset, count, size_, sizeof(T));
    return DeviceBuffer(context_, ptr_ + offset * sizeof(T), count);
  }

  void copy_from_host(const Stream& stream, const std::vector<T>& host) {
    if (host.size() != size_)
      throw Error("copy_from_host: buffer holds " + std::to_string(size_) + " elements, host " +
                  std::to_string(host.size()));
    detail::copy_to_device(stream, ptr_, host.data(), bytes());
  }
  std::vector<T> to_host_vec(const Stream& stream) const {
    std::vector<T> host(size_);
    detail::copy_to_host(stream, host.data(), ptr_, bytes());
    return host;
  }
  // Queues the copy of `host` into this buffer on `stream` and returns at once: `host` must
  // stay alive and unchanged until the stream has run the copy (Stream::synchronize, an Event).
  void copy_from_host_async(const Stream& stream, const PinnedBuffer<T>& host) {
    detail::check_host_copy("DeviceBuffer::copy_from_host_async", size_, host.size(),
                            stream.context().ordinal(), context_.ordinal());
    detail::copy_to_device_async(stream, ptr_, host.data(), bytes());
  }
  // Queues the copy of this buffer into `host` and returns at once: read `host` only after the
  // stream has run the copy.
  void to_host_async(const Stream& stream, PinnedBuffer<T>& host) const {
    detail::check_host_copy("DeviceBuffer::to_host_async", size_, host.size(),
                            stream.context().ordinal(), context_.ordinal());
    detail::copy_to_host_async(stream, host.data(), ptr_, bytes());
  }
  // Copies `other` (same size, same device) on the device, ordered on `stream` with the
  // launches around it: the output of one kernel becomes another's input without a host trip.
  void copy_from(const Stream& stream, const DeviceBuffer& other) {
    detail::check_copy("DeviceBuffer::copy_from", size_, other.size_, stream.context().ordinal(),
                       context_.ordinal(), other.context_.ordinal());
    detail::check_copy_ranges("DeviceBuffer::copy_from", ptr_, other.ptr_, bytes());
    detail::copy_on_device(stream, ptr_, other.ptr_, bytes());
  }

 private:
  DeviceBuffer(Context context, std::size_t size)
      : context_(std::move(context)),
        ptr_(detail::allocate(context_, detail::checked_bytes("DeviceBuffer", size, sizeof(T)))),
        size_(size) {}
  // A view of memory owned elsewhere (checked by the caller).
  DeviceBuffer(Context context, detail::DevicePtr ptr, std::size_t size)
      : context_(std::move(context)), ptr_(ptr), size_(size), owner_(false) {}
  void reset() noexcept {
    if (owner_ && ptr_ != 0) detail::release(context_, ptr_);
    ptr_ = 0;
  }

  Context context_;
  detail::DevicePtr ptr_ = 0;
  std::size_t size_ = 0;
  bool owner_ = true;  // false for a borrowed buffer or a slice
};

// A row-major matrix in device memory, rows × cols with rows `pitch()` elements apart; what a
// kernel's disjoint_span2d parameter is given.
template <class T>
class DeviceBuffer2D {
 public:
  static DeviceBuffer2D uninitialized(const Stream& stream, std::size_t rows, std::size_t cols) {
    return DeviceBuffer2D(DeviceBuffer<T>::uninitialized(stream, elements(rows, cols)), rows, cols);
  }
  static DeviceBuffer2D zeroed(const Stream& stream, std::size_t rows, std::size_t cols) {
    return DeviceBuffer2D(DeviceBuffer<T>::zeroed(stream, elements(rows, cols)), rows, cols);
  }
  static DeviceBuffer2D from_host(const Stream& stream, const std::vector<T>& row_major,
                                  std::size_t rows, std::size_t cols) {
    if (row_major.size() != elements(rows, cols))
      throw Error("DeviceBuffer2D::from_host: " + std::to_string(row_major.size()) +
                  " values for a " + std::to_string(rows) + " x " + std::to_string(cols) +
                  " matrix");
    return DeviceBuffer2D(DeviceBuffer<T>::from_host(stream, row_major), rows, cols);
  }
  // A rows × cols row-major matrix of `context`'s device at `device_ptr`, allocated elsewhere
  // (cudaMalloc, cuBLAS's caller, a framework's tensor): launches take it like any matrix, and
  // it frees nothing. The start must be 16-byte aligned, as allocations are.
  static DeviceBuffer2D borrow(const Context& context, detail::DevicePtr device_ptr, std::size_t rows,
                               std::size_t cols) {
    return DeviceBuffer2D(DeviceBuffer<T>::borrow(context, device_ptr, elements(rows, cols)), rows, cols);
  }
  static DeviceBuffer2D borrow(const Context& context, T* device_ptr, std::size_t rows, std::size_t cols) {
    return DeviceBuffer2D(DeviceBuffer<T>::borrow(context, device_ptr, elements(rows, cols)), rows, cols);
  }
  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  std::size_t pitch() const { return cols_; }
  std::size_t bytes() const { return storage_.bytes(); }
  detail::DevicePtr device_ptr() const { return storage_.device_ptr(); }
  // The device address typed, for CUDA libraries (a cuBLAS operand or result, with leading
  // dimension pitch()); never dereference it on the host.
  T* device_data() { return storage_.device_data(); }
  const T* device_data() const { return storage_.device_data(); }
  const Context& context() const { return storage_.context(); }
  std::vector<T> to_host_vec(const Stream& stream) const { return storage_.to_host_vec(stream); }
  // The matrix as the row-major buffer it is (rows × cols, pitch == cols): what a kernel's
  // carbide::span<const T> parameter reads, so a matrix one launch wrote feeds the next.
  const DeviceBuffer<T>& flat() const { return storage_; }
  // Copies `other` (same shape, same device) on the device, ordered on `stream`.
  void copy_from(const Stream& stream, const DeviceBuffer2D& other) {
    detail::check_copy("DeviceBuffer2D::copy_from", rows_, other.rows_, stream.context().ordinal(),
                       context().ordinal(), other.context().ordinal());
    storage_.copy_from(stream, other.storage_);
  }

 private:
  static std::size_t elements(std::size_t rows, std::size_t cols) {
    return detail::checked_bytes("DeviceBuffer2D", rows, cols);
  }
  DeviceBuffer2D(DeviceBuffer<T> storage, std::size_t rows, std::size_t cols)
      : storage_(std::move(storage)), rows_(rows), cols_(cols) {}
  DeviceBuffer<T> storage_;
  std::size_t rows_, cols_;
};

// Proof that a launch configuration was checked against one kernel's contract on one loaded
// module. Only the kernel's tag, which only the generated module can reach, constructs one.
template <class KernelTag>
class Prepared {
 public:
  const LaunchConfig& config() const { return config_; }
  const void* module_identity() const { return module_identity_; }

 private:
  friend KernelTag;
  Prepared(LaunchConfig config, const void* module_identity)
      : config_(config), module_identity_(module_identity) {}
  LaunchConfig config_;
  const void* module_identity_;
};

namespace detail {

// What the generated module's deleted prepare_k returns for a contract-less kernel k, so that
// `m.k(stream, m.prepare_k(config), …)` draws one error, at prepare_k, not a second at k.
struct missing_contract {};

// Stands in the API header for an argument whose type the header cannot name, which
// carbide-kernel-signature reports: any argument converts to it, so the user's call still
// compiles while that finding is reported. No stub is generated for such a kernel.
struct unnameable_argument {
  template <class T>
  unnameable_argument(const T&) {}  // NOLINT(google-explicit-constructor): converts on purpose
};

struct LoadedModuleState;

// A module's CARBIDE_CONSTANT table, as its stubs describe it: found by `symbol` in the image on a
// GPU; on the CPU, `cpu_copy` is the CPU form's own table.
struct ConstantTableSite {
  const char* name;    // conv::taps, for messages
  const char* symbol;  // _ZN4conv4tapsE
  void* cpu_copy;
  std::size_t elements;
  std::size_t element_bytes;
};

// A module image loaded into one context, with its kernels looked up by entry name. On a CPU
// context the module runs its kernels' CPU forms instead, given in the order of the entry names;
// on a GPU context those are ignored (and on a CPU one the image is).
class LoadedModule {
 public:
  LoadedModule(const Context& context, const void* image,
               std::initializer_list<const char*> entry_names);
  LoadedModule(const Context& context, const void* image, std::initializer_list<const char*> entry_names,
               std::initializer_list<cpu::ModuleEntry> cpu_entries,
               std::initializer_list<ConstantTableSite> constant_tables = {});
  const Context& context() const { return context_; }
  const KernelFootprint& footprint(std::size_t kernel) const;
  // Lets a kernel use more than the default dynamic shared memory, where its contract asks.
  void reserve_dynamic_shared(std::size_t kernel, std::uint64_t bytes) const;
  void launch(std::size_t kernel, const Stream& stream, const LaunchConfig& config,
              void** args) const;
  // Copies `count` elements into constant table `table` in `stream`'s order (as
  // cudaMemcpyToSymbolAsync does); throws Error unless `count` is the table's size and the stream
  // is of this module's context.
  void set_constant(std::size_t table, const Stream& stream, const void* values, std::size_t count) const;
  const void* identity() const { return state_.get(); }

 private:
  Context context_;
  std::shared_ptr<LoadedModuleState> state_;
};

struct BufferArgument {
  const char* name;
  DevicePtr ptr;
  std::size_t bytes;
  bool exclusive;
};

// Throws AliasingError when an exclusive buffer overlaps any other buffer of the launch.
void check_no_aliasing(const char* kernel, std::initializer_list<BufferArgument> buffers);

// The device a launch argument lives on (a buffer's, or the stream's).
struct ArgumentDevice {
  const char* name;
  int ordinal;
};

// Throws when the stream or a buffer of a launch belongs to another device than the module
// the kernel was loaded from: the driver would fault on the pointer, or run on the wrong GPU.
void check_same_device(const char* kernel, int module_ordinal,
                       std::initializer_list<ArgumentDevice> arguments);

// Throws when a Prepared value was made by another module (or context) than the one launching.
void check_prepared_for(const char* kernel, const void* prepared_identity,
                        const LoadedModule& module);

template <class T>
auto read_view(const DeviceBuffer<T>& buffer) {
  return view_access::make<span<const T>>(reinterpret_cast<const T*>(buffer.device_ptr()),
                                           buffer.size());
}
template <class T>
auto read_view(const DeviceBuffer2D<T>& buffer) {
  return view_access::make_read_2d<T>(reinterpret_cast<const T*>(buffer.device_ptr()), buffer.rows(),
                                      buffer.cols(), buffer.pitch());
}
template <class T>
auto exclusive_view(DeviceBuffer<T>& buffer) {
  return view_access::make<disjoint_span<T>>(reinterpret_cast<T*>(buffer.device_ptr()),
                                              buffer.size());
}
template <class T>
auto exclusive_view(DeviceBuffer2D<T>& buffer) {
  return view_access::make_2d<T>(reinterpret_cast<T*>(buffer.device_ptr()), buffer.rows(),
                                 buffer.cols(), buffer.pitch());
}
template <class T>
auto atomic_view(DeviceBuffer<T>& buffer) {
  return view_access::make<atomic_span<T>>(reinterpret_cast<T*>(buffer.device_ptr()),
                                            buffer.size());
}

}  // namespace detail
}  // namespace carbide

// Tensors and the tile-kernel launch helpers build on the classes above; each of those headers
// includes this one first, so any of them may be included on its own.
#include <carbide/tensor.hpp>
