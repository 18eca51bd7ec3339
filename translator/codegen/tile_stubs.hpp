// The launch API of tile kernels: `module.k<…>(stream, Partition&…, const Tensor&…, scalars…)`.
// The grid comes from the partitions, the block and shared memory from the planner; the stub
// checks every argument and the launch before the driver sees it (docs/tile-lowering.md).
#pragma once

#include "model/module_model.hpp"
#include "tile/planner.hpp"

#include <optional>
#include <string>

namespace carbide::codegen {

// The API header's declaration of a tile kernel (a template's member template).
std::string tile_kernel_declaration(const model::Kernel& kernel, const std::string& parameters);

// Where a tile kernel instance's entries are among the module's: its own, and the entry of its
// whole launches where the plan has one.
struct TileEntries {
  std::size_t index;
  std::optional<std::size_t> whole;
};

// The contract constant and the launch stub of a tile kernel instance.
std::string tile_contract_constant(const model::Kernel& kernel, const tile::TilePlan& plan);
std::string tile_kernel_definition(const model::Kernel& kernel, const TileEntries& entries, const tile::TilePlan& plan,
                                   const std::string& parameters);

}  // namespace carbide::codegen
