#pragma once

#include "model/module_model.hpp"

#include <clang/AST/ASTContext.h>

#include <string>

namespace carbide::codegen {

// The module API: one Module class per kernel namespace, with prepare_<k> and the typed launch
// for each kernel that has a contract, unsafe_launch_<k> for each that has none.
std::string generate_api_header(const model::Program& program);

// What the stubs embed: the module image and how it was made.
struct ModuleImage {
  std::string bytes;        // PTX text or a fatbin
  std::string description;  // e.g. "PTX for sm_90 from nvcc 13.0"
};

// The host stubs: the module loader with the image embedded, prepare_<k> and the launches, and
// the definitions of the user records that views hold (read from `context`'s sources).
std::string generate_host_stubs(const model::Program& program, const ModuleImage& image,
                                const std::string& api_header_name, clang::ASTContext& context);

}  // namespace carbide::codegen
