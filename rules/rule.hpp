// A rule reads the module model (and the AST behind it) and reports findings. Rules never print.
#pragma once

#include "analysis/device_analysis.hpp"
#include "diagnostics/finding.hpp"
#include "model/module_model.hpp"
#include "tile/tile_programs.hpp"

#include <clang/AST/ASTContext.h>

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace carbide::rules {

struct RuleContext {
  clang::ASTContext& ast;
  const model::Program& program;
  const analysis::DeviceAnalysis& device;
  const tile::TilePrograms& tiles;
  diag::Reporter& reporter;
};

class Rule {
 public:
  virtual ~Rule() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view summary() const = 0;  // one line, for --list-checks and SARIF
  virtual void check(const RuleContext& context) = 0;
};

// Every rule, in the order their findings are printed.
std::vector<std::unique_ptr<Rule>> make_all_rules();
void run_all_rules(const RuleContext& context);

// The source text of an expression, for messages: 'c_elem[1]'.
std::string source_text(const clang::ASTContext& ast, const clang::Stmt* statement);

// A finding of `rule` at `where`, highlighting `range` when it is valid.
diag::Finding finding(std::string_view rule, diag::Severity severity, clang::SourceLocation where,
                      std::string message, clang::SourceRange range = {});

// For a helper that kernels with different blocks call, and is checked once per block: which
// block a finding holds in, as a note at the helper.
std::optional<diag::Note> calling_shape_note(const RuleContext& context, const analysis::ThreadValues& values);

}  // namespace carbide::rules
