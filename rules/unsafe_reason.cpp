#include "unsafe_reason.hpp"

#include <llvm/ADT/StringRef.h>

namespace carbide::rules {

void UnsafeReasonRule::check(const RuleContext& context) {
  for (const analysis::UnsafeBlock& block : context.device.unsafe_blocks()) {
    if (!llvm::StringRef(block.reason).trim().empty()) continue;
    context.reporter.report(finding(
        name(), diag::Severity::Warning, block.location,
        "CARBIDE_UNSAFE block without a reason; say why the unchecked code is sound, e.g. "
        "CARBIDE_UNSAFE(\"in-bounds: i < n was checked above\"), so reviewers can verify it"));
  }
}

}  // namespace carbide::rules
