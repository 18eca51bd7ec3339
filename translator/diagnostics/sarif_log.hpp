// SARIF 2.1.0 for code-scanning services, written by hand: Clang's own SARIF output is marked
// unstable and numbers its rules.
#pragma once

#include "diagnostics/finding.hpp"

#include <clang/Basic/SourceManager.h>
#include <llvm/Support/JSON.h>

#include <string>
#include <vector>

namespace carbide::diag {

struct RuleDescriptor {
  std::string id;
  std::string summary;
};

class SarifLog {
 public:
  // `rule_pages_dir` holds docs/rules' pages (<id>.md), installed or in the source tree; each
  // rule's helpUri is its page there. "" leaves helpUri out.
  SarifLog(std::vector<RuleDescriptor> rules, std::string rule_pages_dir);
  // Adds one file's findings; their locations are read from `sources` now.
  void add(const std::vector<Finding>& findings, const clang::SourceManager& sources);
  std::string str() const;

 private:
  std::vector<RuleDescriptor> rules_;
  std::string rule_pages_dir_;
  llvm::json::Array results_;
};

}  // namespace carbide::diag
