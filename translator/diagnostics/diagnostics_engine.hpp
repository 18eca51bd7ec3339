// The one place findings become output: it applies --checks, NOLINT comments and
// --warnings-as-errors, then prints in clang's format (or hands the findings to SARIF).
#pragma once

#include "diagnostics/finding.hpp"

#include <clang/Basic/LangOptions.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/Support/raw_ostream.h>

#include <string>
#include <vector>

namespace carbide::diag {

// A clang-tidy style glob list: "carbide-*,-carbide-missing-contract".
class GlobList {
 public:
  explicit GlobList(std::string globs = "*");
  bool matches(const std::string& name) const;
  // The globs that add names (no leading '-') and match none of `names`.
  std::vector<std::string> positive_patterns_matching_none(const std::vector<std::string>& names) const;

 private:
  struct Glob {
    bool positive;
    std::string pattern;
  };
  std::vector<Glob> globs_;
};

struct EngineOptions {
  std::string checks = "*";
  std::string warnings_as_errors = "";
};

class DiagnosticsEngine final : public Reporter {
 public:
  explicit DiagnosticsEngine(EngineOptions options = {});

  // Findings refer to locations in this source manager; set before the first report.
  void attach(const clang::SourceManager& sources, const clang::LangOptions& language);
  void report(Finding finding) override;

  const std::vector<Finding>& findings() const { return findings_; }
  bool has_errors() const;
  void print_text(llvm::raw_ostream& out, bool colors) const;

 private:
  bool suppressed_by_comment(const Finding& finding) const;

  GlobList enabled_, as_errors_;
  const clang::SourceManager* sources_ = nullptr;
  const clang::LangOptions* language_ = nullptr;
  std::vector<Finding> findings_;
};

}  // namespace carbide::diag
