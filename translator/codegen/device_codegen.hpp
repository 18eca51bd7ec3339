#pragma once

#include "analysis/view_claims.hpp"
#include "model/module_model.hpp"
#include "tile/tile_programs.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Lex/Preprocessor.h>

#include "nvcc/ptx_directives.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace carbide::codegen {

// What the analyses found that codegen reads: proofs that let checks or 64-bit arithmetic go, and
// what the launches must check.
struct ProvenFacts {
  // Indexes proven in range, of shared arrays (`tile[i]`, `tile.fetch_add(i, v)`) and of span
  // reads: emitted as `::carbide::detail::in_range(i)`, which skips the bounds check.
  std::vector<const clang::Expr*> in_range;
  // Subscripts of fixed-size C arrays not proven inside them (analysis/array_indexes): emitted
  // as `::carbide::detail::checked(acc, "...")[j]`, which checks the index.
  std::vector<const clang::ArraySubscriptExpr*> checked_arrays;
  // Witness sources that only `index_bits = 32` kernels reach: emitted as their 32-bit twins.
  std::vector<const clang::CallExpr*> narrow_witnesses;
  // The kernels (canonical declarations) that reach a barrier or a warp collective: on the CPU
  // their threads run as fibers that meet there.
  std::set<const clang::FunctionDecl*> synchronizing;
  // The claims each SIMT kernel makes of its views, for the checks its launch makes
  // (transposed grids, whole chunks).
  std::map<const clang::FunctionDecl*, analysis::ViewClaims> kernel_claims;
};

// The checked CUDA C++ for a program: every declaration the kernels reach, copied from the
// user's file under `#line` directives (with the user's macros they name), then one extern "C" __global__ entry per kernel, which
// hands a kernel with `index_bits = 32` its views with 32-bit extents. Tile kernels get the
// entries the tile emitter writes. `device_checks` false (translate --device-checks=off, for
// measuring what the checks cost) compiles the views without their bounds checks.
std::string generate_device_source(const model::Program& program, clang::ASTContext& context,
                                   clang::Preprocessor& preprocessor, const std::string& generated_name, const ProvenFacts& proven,
                                   const tile::TilePrograms& tiles, bool device_checks = true);

// The exact block of every kernel with a contract or a plan, by PTX entry name.
nvcc::ExactBlocks exact_blocks(const model::Program& program, const tile::TilePrograms& tiles);

}  // namespace carbide::codegen
