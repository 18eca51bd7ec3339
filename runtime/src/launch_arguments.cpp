// The checks a generated launch makes on its arguments before the driver sees them: aliasing
// between an exclusive buffer and the others, the device each lives on, and buffer sizes; the
// same for copies; and the ranges slices and borrowed buffers may cover.
#include <carbide/runtime.hpp>

#include <cstdio>
#include <limits>
#include <numeric>

namespace carbide::detail {

namespace {
bool overlaps(const BufferArgument& a, const BufferArgument& b) {
  if (a.bytes == 0 || b.bytes == 0) return false;
  return a.ptr < b.ptr + b.bytes && b.ptr < a.ptr + a.bytes;
}

// Where a view may start: the device code moves whole chunks (vec<T, K>) of up to 16 bytes,
// counted from the view's start.
constexpr std::size_t kViewAlignment = 16;
constexpr const char* kViewAlignmentReason =
    "not on a 16-byte boundary; kernels move whole chunks of up to 16 bytes from a view's start";

std::string hex(DevicePtr ptr) {
  char text[2 + 16 + 1];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(ptr));
  return text;
}
}  // namespace

void check_no_aliasing(const char* kernel, std::initializer_list<BufferArgument> buffers) {
  for (auto first = buffers.begin(); first != buffers.end(); ++first) {
    for (auto second = first + 1; second != buffers.end(); ++second) {
      if (!first->exclusive && !second->exclusive) continue;
      if (!overlaps(*first, *second)) continue;
      const BufferArgument& exclusive = first->exclusive ? *first : *second;
      const BufferArgument& other = first->exclusive ? *second : *first;
      throw AliasingError(kernel, exclusive.name, other.name);
    }
  }
}

std::size_t checked_bytes(const char* what, std::size_t count, std::size_t element_bytes) {
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(count, element_bytes, &bytes))
    throw Error(std::string(what) + " of " + std::to_string(count) + " x " +
                std::to_string(element_bytes) + " bytes: the size does not fit in 64 bits");
  return bytes;
}

void check_copy(const char* what, std::size_t expected, std::size_t count, int stream_device,
                int to_device, int from_device) {
  if (count != expected)
    throw Error(std::string(what) + ": the source holds " + std::to_string(count) +
                ", the destination " + std::to_string(expected) + "; copy between equal sizes");
  if (to_device != stream_device || from_device != stream_device)
    throw Error(std::string(what) + ": the buffers live on devices " + std::to_string(to_device) +
                " and " + std::to_string(from_device) + " and the stream on device " +
                std::to_string(stream_device) + "; copy within one device");
}

void check_copy_ranges(const char* what, DevicePtr dst, DevicePtr src, std::size_t bytes) {
  if (dst != src && overlaps({"", dst, bytes, true}, {"", src, bytes, false}))
    throw Error(std::string(what) + ": the source and destination overlap (slices of one "
                "buffer), where a copy is undefined; copy through a buffer of their own");
}

void check_host_copy(const char* what, std::size_t device_count, std::size_t host_count,
                     int stream_device, int buffer_device) {
  if (host_count != device_count)
    throw Error(std::string(what) + ": the device buffer holds " + std::to_string(device_count) +
                " elements, the host buffer " + std::to_string(host_count) +
                "; copy between equal sizes");
  if (buffer_device != stream_device)
    throw Error(std::string(what) + ": the device buffer lives on device " +
                std::to_string(buffer_device) + " and the stream on device " +
                std::to_string(stream_device) + "; copy on a stream of the buffer's device");
}

void check_slice(std::size_t offset, std::size_t count, std::size_t size,
                 std::size_t element_bytes) {
  const std::string call = "DeviceBuffer::slice(offset " + std::to_string(offset) + ", count " +
                           std::to_string(count) + ")";
  if (offset > size || count > size - offset)
    throw Error(call + " of a buffer of " + std::to_string(size) +
                " elements: the range runs past its end");
  if (count != 0 && offset * element_bytes % kViewAlignment != 0)
    throw Error(call + ": element " + std::to_string(offset) + " starts " +
                std::to_string(offset * element_bytes) + " bytes in, " + kViewAlignmentReason +
                ", so start it at a multiple of " +
                std::to_string(kViewAlignment / std::gcd(kViewAlignment, element_bytes)) +
                " elements");
}

void check_borrow(DevicePtr ptr, std::size_t count, std::size_t element_bytes) {
  const std::size_t bytes = checked_bytes("DeviceBuffer::borrow", count, element_bytes);
  if (ptr == 0 && count != 0)
    throw Error("DeviceBuffer::borrow: a null device pointer for " + std::to_string(count) +
                " elements");
  if (bytes > std::numeric_limits<DevicePtr>::max() - ptr)
    throw Error("DeviceBuffer::borrow: " + std::to_string(count) + " elements at " + hex(ptr) +
                " run past the end of the address space");
  if (ptr % kViewAlignment != 0)
    throw Error("DeviceBuffer::borrow: device pointer " + hex(ptr) + " is " +
                kViewAlignmentReason);
}

void check_same_device(const char* kernel, int module_ordinal,
                       std::initializer_list<ArgumentDevice> arguments) {
  for (const ArgumentDevice& argument : arguments)
    if (argument.ordinal != module_ordinal)
      throw Error(std::string("launch of ") + kernel + " rejected: '" + argument.name +
                  "' belongs to device " + std::to_string(argument.ordinal) +
                  ", the module was loaded on device " + std::to_string(module_ordinal) +
                  "; allocate it (or create the stream) from the module's context");
}

}  // namespace carbide::detail
