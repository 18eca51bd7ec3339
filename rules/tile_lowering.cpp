#include "tile_lowering.hpp"

namespace carbide::rules {

void TileLoweringRule::check(const RuleContext& context) {
  for (const tile::PlannedKernel& kernel : context.tiles.kernels())
    for (const tile::Problem& problem : kernel.plan.problems)
      context.reporter.report(finding(name(), diag::Severity::Error, problem.at,
                                      "in tile kernel '" + kernel.model.kernel->qualified_name + "': " + problem.message,
                                      problem.range));
}

}  // namespace carbide::rules
