#pragma once

#include "model/module_model.hpp"
#include "tile/tile_programs.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>

#include "nvcc/ptx_directives.hpp"

#include <string>
#include <vector>

namespace carbide::codegen {

// The checked CUDA C++ for a program: every declaration the kernels reach, copied from the
// user's file under `#line` directives, then one extern "C" __global__ entry per kernel.
// Each shared-memory index in `proven_in_range` is emitted as `::carbide::detail::in_range(i)`
// (`tile[in_range(i)]`, `tile.fetch_add(in_range(i), v)`), which skips the bounds check. Tile kernels get the entries the tile emitter writes.
std::string generate_device_source(
    const model::Program& program, clang::ASTContext& context, const std::string& generated_name,
    const std::vector<const clang::Expr*>& proven_in_range, const tile::TilePrograms& tiles);

// The exact block of every kernel with a contract or a plan, by PTX entry name.
nvcc::ExactBlocks exact_blocks(const model::Program& program, const tile::TilePrograms& tiles);

}  // namespace carbide::codegen
