// --export-fixes: the findings that carry fix-its, as the YAML clang-apply-replacements reads
// (clang::tooling's own serialisation, so the format cannot drift).
#pragma once

#include "diagnostics/finding.hpp"

#include <clang/Basic/SourceManager.h>
#include <clang/Tooling/Core/Diagnostic.h>

#include <string>
#include <vector>

namespace carbide::diag {

class FixesExport {
 public:
  void add(const std::vector<Finding>& findings, const clang::SourceManager& sources);
  std::string yaml() const;

 private:
  clang::tooling::TranslationUnitDiagnostics diagnostics_;
};

}  // namespace carbide::diag
