#include "diagnostics/fixes_export.hpp"

#include <clang/Tooling/DiagnosticsYaml.h>
#include <llvm/Support/YAMLTraits.h>

namespace carbide::diag {

void FixesExport::add(const std::vector<Finding>& findings, const clang::SourceManager& sources) {
  if (diagnostics_.MainSourceFile.empty())
    if (auto main = sources.getFileEntryRefForID(sources.getMainFileID()))
      diagnostics_.MainSourceFile = main->getName().str();
  for (const Finding& finding : findings) {
    if (finding.fixits.empty()) continue;
    clang::tooling::DiagnosticMessage message(finding.message, sources,
                                              sources.getExpansionLoc(finding.location));
    for (const FixIt& fix : finding.fixits) {
      clang::tooling::Replacement replacement(sources, fix.range, fix.replacement);
      llvm::consumeError(message.Fix[replacement.getFilePath()].add(replacement));
    }
    diagnostics_.Diagnostics.emplace_back(
        finding.rule, message, llvm::SmallVector<clang::tooling::DiagnosticMessage, 1>(),
        finding.severity == Severity::Error ? clang::tooling::Diagnostic::Error
                                            : clang::tooling::Diagnostic::Warning,
        "");
  }
}

std::string FixesExport::yaml() const {
  std::string text;
  llvm::raw_string_ostream out(text);
  llvm::yaml::Output yaml(out);
  auto copy = diagnostics_;
  yaml << copy;
  return text;
}

}  // namespace carbide::diag
