// Every failure the runtime reports is a carbide::Error; the kinds say who must act.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>

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
