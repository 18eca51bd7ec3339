// The names of the launch API that Carbide generates for host code (codegen/host_codegen.cpp
// writes it): one `Module` class per kernel namespace, with a launch, a `prepare_` and an
// `unsafe_launch_` member per kernel, and a `set_` member per constant table. The model and the host-side rules find kernels by them.
#pragma once

#include "model/module_model.hpp"

#include <clang/AST/DeclCXX.h>

#include <optional>
#include <string>

namespace carbide::model {

inline constexpr const char* kModuleClassName = "Module";
inline std::string prepare_function_name(const std::string& kernel) { return "prepare_" + kernel; }
inline std::string unchecked_launch_name(const std::string& kernel) { return "unsafe_launch_" + kernel; }
// What sets a CARBIDE_CONSTANT table: `set_taps(stream, values)`.
inline std::string constant_setter_name(const std::string& table) { return "set_" + table; }

enum class ApiMember { Launch, Prepare, UncheckedLaunch };

struct ApiCall {
  const Kernel* kernel;
  ApiMember member;
};

// The kernel, and which of its members, a method of the generated API is; nullopt for any other
// method. For a kernel template, the first of the program's kernels of that name.
std::optional<ApiCall> api_member(const clang::CXXMethodDecl* method, const Program& program);

}  // namespace carbide::model
