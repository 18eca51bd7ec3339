// Every failure the runtime reports is a carbide::Error; the kinds say who must act.
#pragma once

#include <array>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

namespace carbide {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A CUDA driver call failed; `result()` is the CUresult, `result_name()` its enumerator name.
class DriverError : public Error {
 public:
  DriverError(int result, std::string result_name, const std::string& call,
              const std::string& detail = "");
  int result() const { return result_; }
  const std::string& result_name() const { return result_name_; }

 private:
  int result_;
  std::string result_name_;
};

// A launch configuration broke the kernel's contract or the device's limits; nothing was
// launched.
class LaunchContractError : public Error {
 public:
  LaunchContractError(std::string kernel, std::string field, std::string expected,
                      std::string got);
  const std::string& kernel() const { return kernel_; }
  const std::string& field() const { return field_; }
  const std::string& expected() const { return expected_; }
  const std::string& got() const { return got_; }

 private:
  std::string kernel_, field_, expected_, got_;
};

// One launch was given overlapping memory for an exclusive parameter and another buffer
// parameter; nothing was launched.
class AliasingError : public Error {
 public:
  AliasingError(std::string kernel, std::string exclusive_param, std::string other_param);
  const std::string& kernel() const { return kernel_; }
  const std::string& exclusive_param() const { return exclusive_param_; }
  const std::string& other_param() const { return other_param_; }

 private:
  std::string kernel_, exclusive_param_, other_param_;
};

// Context::create found no device to open: no driver, a driver without a GPU, or no device of
// that ordinal. `what()` says which, in words for whoever runs the program: "no CUDA device:
// the CUDA driver (libcuda.so.1) is not installed".
class NoDeviceError : public Error {
 public:
  // `device_count` devices exist; `reason` says why there are none when it is 0.
  NoDeviceError(int ordinal, int device_count, const std::string& reason);
  int ordinal() const { return ordinal_; }
  int device_count() const { return device_count_; }

 private:
  int ordinal_, device_count_;
};

// A kernel running on the CPU (Context::create_cpu) did what a GPU would not report, or would hang
// on: two threads raced on one address, an index ran past a view's end, a barrier or warp
// collective was not reached by every thread that must meet there, a requirement failed, or the
// launch ran past CARBIDE_CPU_TIMEOUT. The launch was stopped; the context, its streams and the
// other buffers stay usable, and the next launch runs.
class KernelError : public Error {
 public:
  // Unsupported: the CPU form cannot run what the kernel asks (an atomic on a type CUDA has none
  // for, or a CPU entry that disagrees with its kernel: translate it again).
  enum class Kind {
    DataRace,
    IndexOutOfRange,
    DivergentBarrier,
    DivergentCollective,
    Timeout,
    RequirementFailed,
    Unsupported
  };
  // Wait: the thread waits there, at a barrier or a warp collective.
  enum class AccessKind { Read, Write, ReadWrite, Atomic, Wait };
  // One thread's access, or where it waits.
  struct Access {
    std::string file;
    unsigned line = 0;
    std::array<unsigned, 3> block{}, thread{};  // x, y, z
    AccessKind kind = AccessKind::Read;
  };

  // `message` says what happened; what() is "kernel <kernel>: <message>".
  KernelError(Kind kind, std::string kernel, const std::string& message, std::vector<Access> accesses = {},
              std::string location = "");
  Kind kind() const { return kind_; }
  const std::string& kernel() const { return kernel_; }
  // A race's two accesses, the earlier first; the failing access of an index past the end; the
  // first thread at the barrier or collective; empty for a timeout.
  const std::vector<Access>& accesses() const { return accesses_; }
  // The memory as the kernel names it: a parameter's view and index ("c[1025]") or a shared
  // array's ("tile[37]"); empty where the error is not about one address.
  const std::string& location() const { return location_; }

 private:
  Kind kind_;
  std::string kernel_;
  std::vector<Access> accesses_;
  std::string location_;
};

// "read", "write", "read-write", "atomic", "wait".
const char* to_string(KernelError::AccessKind kind);

// For main's handler, so that a failure ends the program with its message instead of
// std::terminate's abort: prints "<program's file name>: error: <what()>" on stderr and returns
// 1, the exit status.
//
//   int main(int argc, char** argv) try {
//     auto ctx = carbide::Context::create(0);
//     ...
//   } catch (const std::exception& error) {
//     return carbide::report_error(argv[0], error);
//   }
int report_error(const char* program, const std::exception& error);

}  // namespace carbide
