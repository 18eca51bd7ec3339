#include <carbide/errors.hpp>

#include <cstdio>
#include <cstring>
#include <utility>

namespace carbide {

DriverError::DriverError(int result, std::string result_name, const std::string& call,
                         const std::string& detail)
    : Error(call + " failed: " + result_name + " (" + std::to_string(result) + ")" +
            (detail.empty() ? "" : ": " + detail)),
      result_(result),
      result_name_(std::move(result_name)) {}

LaunchContractError::LaunchContractError(std::string kernel, std::string field,
                                         std::string expected, std::string got)
    : Error("launch of " + kernel + " rejected: " + field + " must be " + expected + ", got " +
            got),
      kernel_(std::move(kernel)),
      field_(std::move(field)),
      expected_(std::move(expected)),
      got_(std::move(got)) {}

AliasingError::AliasingError(std::string kernel, std::string exclusive_param,
                             std::string other_param)
    : Error("launch of " + kernel + " rejected: exclusive parameter '" + exclusive_param +
            "' overlaps the memory of parameter '" + other_param +
            "'; pass distinct buffers"),
      kernel_(std::move(kernel)),
      exclusive_param_(std::move(exclusive_param)),
      other_param_(std::move(other_param)) {}

namespace {
std::string no_device_message(int ordinal, int device_count, const std::string& reason) {
  if (device_count == 0) return "no CUDA device: " + reason;
  return "no CUDA device " + std::to_string(ordinal) + ": this machine has " +
         std::to_string(device_count) +
         (device_count == 1 ? " (ordinal 0)"
                            : " (ordinals 0 to " + std::to_string(device_count - 1) + ")");
}
}  // namespace

NoDeviceError::NoDeviceError(int ordinal, int device_count, const std::string& reason)
    : Error(no_device_message(ordinal, device_count, reason)),
      ordinal_(ordinal),
      device_count_(device_count) {}

KernelError::KernelError(Kind kind, std::string kernel, const std::string& message,
                         std::vector<Access> accesses, std::string location)
    : Error("kernel " + kernel + ": " + message),
      kind_(kind),
      kernel_(std::move(kernel)),
      accesses_(std::move(accesses)),
      location_(std::move(location)) {}

const char* to_string(KernelError::AccessKind kind) {
  switch (kind) {
    case KernelError::AccessKind::Read: return "read";
    case KernelError::AccessKind::Write: return "write";
    case KernelError::AccessKind::ReadWrite: return "read-write";
    case KernelError::AccessKind::Atomic: return "atomic";
    case KernelError::AccessKind::Wait: return "wait";
  }
  return "access";
}

int report_error(const char* program, const std::exception& error) {
  // argv[0] may be a path (build/vecadd) and, with argc == 0, null.
  const char* name = program != nullptr && *program != '\0' ? program : "program";
  if (const char* slash = std::strrchr(name, '/'); slash != nullptr && slash[1] != '\0')
    name = slash + 1;
  std::fprintf(stderr, "%s: error: %s\n", name, error.what());
  return 1;
}

}  // namespace carbide
