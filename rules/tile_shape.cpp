#include "tile_shape.hpp"

namespace carbide::rules {

void TileShapeRule::check(const RuleContext& context) {
  for (const tile::PlannedKernel& kernel : context.tiles.kernels())
    for (const tile::Problem& problem : kernel.model.problems)
      if (problem.kind == tile::Problem::Kind::Shape)
        context.reporter.report(finding(name(), diag::Severity::Error, problem.at,
                                        "in tile kernel '" + kernel.model.kernel->qualified_name + "': " +
                                            problem.message,
                                        problem.range));
}

}  // namespace carbide::rules
