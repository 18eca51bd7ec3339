#include "tile_grid.hpp"

namespace carbide::rules {

void TileGridRule::check(const RuleContext& context) {
  for (const tile::PlannedKernel& kernel : context.tiles.kernels()) {
    const model::Kernel& declared = *kernel.model.kernel;
    const model::Parameter* first = nullptr;
    for (const model::Parameter& param : declared.params) {
      if (param.kind != model::ParamKind::TileOut || !kernel.model.outs.count(param.name)) continue;
      if (first == nullptr) {
        first = &param;
        continue;
      }
      const tile::TileType& a = kernel.model.outs.at(first->name);
      const tile::TileType& b = kernel.model.outs.at(param.name);
      if (a.extents == b.extents) continue;
      const bool never = a.extents.size() != b.extents.size();
      context.reporter.report(finding(
          name(), never ? diag::Severity::Error : diag::Severity::Warning, param.decl->getLocation(),
          "in tile kernel '" + declared.qualified_name + "': '" + param.name + "' is partitioned into tiles of " +
              b.shape_text() + " and '" + first->name + "' into tiles of " + a.shape_text() +
              (never ? ", of another rank, so the two never give one grid"
                     : ", so a launch works only when both give the same tiles per axis (it throws otherwise)") +
              "; give every out of the kernel one tile shape",
          param.decl->getSourceRange()));
    }
  }
}

}  // namespace carbide::rules
