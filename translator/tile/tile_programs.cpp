#include "tile/tile_programs.hpp"

namespace carbide::tile {

TilePrograms::TilePrograms(clang::ASTContext& context, const model::Program& program, const TileTarget& target) {
  for (const model::Module& module : program.modules)
    for (const model::Kernel& kernel : module.kernels)
      if (kernel.is_tile) {
        TileKernel model = build_tile_kernel(context, kernel);
        TilePlan plan = plan_tile_kernel(model, target);
        kernels_.push_back({std::move(model), std::move(plan)});
      }
}

const PlannedKernel* TilePrograms::find(const model::Kernel& kernel) const {
  for (const PlannedKernel& planned : kernels_)
    if (planned.model.kernel == &kernel) return &planned;
  return nullptr;
}

}  // namespace carbide::tile
