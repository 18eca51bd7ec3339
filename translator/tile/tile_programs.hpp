// Every tile kernel instance of a program, modelled and planned once: the rules read their
// problems, the device code generator prints them, the host stubs launch them with their plan.
#pragma once

#include "tile/planner.hpp"
#include "tile/tile_model.hpp"

#include <vector>

namespace carbide::tile {

struct PlannedKernel {
  TileKernel model;
  TilePlan plan;
};

class TilePrograms {
 public:
  TilePrograms(clang::ASTContext& context, const model::Program& program, const TileTarget& target);
  // Templates as written have none: their shapes are only known per instance.
  const std::vector<PlannedKernel>& kernels() const { return kernels_; }
  const PlannedKernel* find(const model::Kernel& kernel) const;

 private:
  std::vector<PlannedKernel> kernels_;
};

}  // namespace carbide::tile
