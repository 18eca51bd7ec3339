#include "rule.hpp"

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include "constant_table.hpp"
#include "device_unsupported.hpp"
#include "disjoint_foreign_write.hpp"
#include "divergent_barrier.hpp"
#include "global_write.hpp"
#include "kernel_signature.hpp"
#include "launch_aliasing.hpp"
#include "launch_config.hpp"
#include "launch_contract.hpp"
#include "missing_contract.hpp"
#include "shared_race.hpp"
#include "tile_grid.hpp"
#include "tile_lowering.hpp"
#include "tile_partition_use.hpp"
#include "tile_shape.hpp"
#include "unsafe_reason.hpp"
#include "unsafe_required.hpp"
#include "whole_store.hpp"
#include "witness_escape.hpp"

namespace carbide::rules {

std::vector<std::unique_ptr<Rule>> make_all_rules() {
  std::vector<std::unique_ptr<Rule>> rules;
  rules.push_back(std::make_unique<KernelSignatureRule>());
  rules.push_back(std::make_unique<LaunchContractRule>());
  rules.push_back(std::make_unique<MissingContractRule>());
  rules.push_back(std::make_unique<DeviceUnsupportedRule>());
  rules.push_back(std::make_unique<WitnessEscapeRule>());
  rules.push_back(std::make_unique<DisjointForeignWriteRule>());
  rules.push_back(std::make_unique<WholeStoreRule>());
  rules.push_back(std::make_unique<GlobalWriteRule>());
  rules.push_back(std::make_unique<ConstantTableRule>());
  rules.push_back(std::make_unique<UnsafeRequiredRule>());
  rules.push_back(std::make_unique<UnsafeReasonRule>());
  rules.push_back(std::make_unique<SharedRaceRule>());
  rules.push_back(std::make_unique<DivergentBarrierRule>());
  rules.push_back(std::make_unique<LaunchAliasingRule>());
  rules.push_back(std::make_unique<LaunchConfigRule>());
  rules.push_back(std::make_unique<TileShapeRule>());
  rules.push_back(std::make_unique<TileGridRule>());
  rules.push_back(std::make_unique<TileLoweringRule>());
  rules.push_back(std::make_unique<TilePartitionUseRule>());
  return rules;
}

void run_all_rules(const RuleContext& context) {
  for (const auto& rule : make_all_rules()) rule->check(context);
}

std::string source_text(const clang::ASTContext& ast, const clang::Stmt* statement) {
  const clang::SourceManager& sources = ast.getSourceManager();
  const clang::CharSourceRange range = clang::CharSourceRange::getTokenRange(
      sources.getExpansionRange(statement->getSourceRange()).getAsRange());
  return clang::Lexer::getSourceText(range, sources, ast.getLangOpts()).str();
}

diag::Finding finding(std::string_view rule, diag::Severity severity, clang::SourceLocation where,
                      std::string message, clang::SourceRange range) {
  diag::Finding result;
  result.rule = std::string(rule);
  result.severity = severity;
  result.location = where;
  result.message = std::move(message);
  if (range.isValid()) result.highlights.push_back(clang::CharSourceRange::getTokenRange(range));
  return result;
}

std::optional<diag::Note> calling_shape_note(const RuleContext& context, const analysis::ThreadValues& values) {
  const clang::FunctionDecl* function = values.function();
  if (context.device.calling_shapes(function).size() < 2) return std::nullopt;
  const analysis::BlockShape& shape = values.shape();
  if (!shape.known()) {
    return diag::Note{function->getLocation(), "'" + function->getNameAsString() +
                                                   "' is also called where the block is not known"};
  }
  return diag::Note{function->getLocation(),
                    "'" + function->getNameAsString() + "' is called by kernels with different blocks; this holds in the block (" +
                        std::to_string(shape.extent[0]) + ", " + std::to_string(shape.extent[1]) + ", " +
                        std::to_string(shape.extent[2]) + ")"};
}

}  // namespace carbide::rules
