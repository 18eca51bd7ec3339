#pragma once

#include "codegen/device_codegen.hpp"
#include "model/module_model.hpp"
#include "tile/tile_programs.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/Lex/Preprocessor.h>

#include <string>

namespace carbide::codegen {

// The module API: one Module class per kernel namespace, with prepare_<k> and the typed launch
// for each kernel that has a contract, unsafe_launch_<k> for each that has none.
std::string generate_api_header(const model::Program& program);

// Ends `header` (generate_api_header's text) with a macro named after a hash of it, and returns
// that hash: the stubs generated with it refuse to compile against any other header, so a set
// of outputs mixed by an interrupted translation fails to build instead of linking stale code.
std::string tag_api_header(std::string& header);

// What the stubs embed: the module image and how it was made.
struct ModuleImage {
  std::string bytes;        // PTX text or a fatbin
  std::string description;  // e.g. "PTX for sm_90 from nvcc 13.0"
};

// The host stubs: the module loader with the image embedded and the kernels' CPU forms
// (codegen/cpu_codegen), prepare_<k> and the launches, the definitions of the user records that
// views hold (read from `context`'s sources), and the launches of the tile kernels with their
// plans. `api_tag` is what tag_api_header returned for the header they include.
std::string generate_host_stubs(const model::Program& program, const ModuleImage& image,
                                const std::string& api_header_name, const std::string& api_tag,
                                clang::ASTContext& context, clang::Preprocessor& preprocessor,
                                const ProvenFacts& proven, const tile::TilePrograms& tiles);

}  // namespace carbide::codegen
