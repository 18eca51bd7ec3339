#include "missing_contract.hpp"

namespace carbide::rules {

void MissingContractRule::check(const RuleContext& context) {
  for (const model::Module& module : context.program.modules) {
    for (const model::Kernel& kernel : module.kernels) {
      if (kernel.contract || kernel.is_tile) continue;
      const clang::SourceLocation at = kernel.decl->getLocation();
      context.reporter.report(finding(
          name(), diag::Severity::Warning, at,
          "kernel '" + kernel.qualified_name +
              "' has no CARBIDE_LAUNCH_CONTRACT, so its launches cannot be checked; it gets only "
              "'unsafe_launch_" + kernel.name +
              "'. Add e.g. CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))",
          clang::SourceRange(at, at)));
    }
  }
}

}  // namespace carbide::rules
