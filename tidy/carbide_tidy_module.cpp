// libCarbideTidy.so: Carbide's rules as clang-tidy checks, for editors that run clang-tidy
// (`clang-tidy-19 --load=libCarbideTidy.so --checks='carbide-*'`).
//
// One clang-tidy check per rule name, so --checks, NOLINT and WarningsAsErrors work the way
// clang-tidy users expect. The rules themselves share one model and one device analysis per
// translation unit; they run once, when the first enabled check sees the unit.
#include "rules/rule.hpp"
#include "model/model_builder.hpp"

#include <clang-tidy/ClangTidyCheck.h>
#include <clang-tidy/ClangTidyModule.h>
#include <clang-tidy/ClangTidyModuleRegistry.h>
#include <clang/ASTMatchers/ASTMatchers.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace carbide::tidy {
namespace {

using clang::ast_matchers::MatchFinder;

class CollectingReporter final : public diag::Reporter {
 public:
  void report(diag::Finding finding) override { findings.push_back(std::move(finding)); }
  std::vector<diag::Finding> findings;
};

// The findings of every rule for one translation unit. clang-tidy makes new check objects for
// each unit, so the checks of one unit share one of these and the next unit starts afresh.
class UnitFindings {
 public:
  static std::shared_ptr<UnitFindings> for_current_unit() {
    static std::weak_ptr<UnitFindings> current;
    std::shared_ptr<UnitFindings> shared = current.lock();
    if (!shared) current = shared = std::make_shared<UnitFindings>();
    return shared;
  }

  const std::vector<diag::Finding>& of(clang::ASTContext& context) {
    if (!findings_) {
      CollectingReporter collected;
      // A unit clang could not compile has no reliable AST; clang-tidy already shows why.
      if (!context.getDiagnostics().hasUncompilableErrorOccurred()) {
        const model::Program program = model::build_program(context);
        const analysis::DeviceAnalysis device(context, program);
        // clang-tidy is given no --cuda-arch: the plans are those of the translator's default
        // architectures, none of them sm_90a.
        // The default architectures, as `carbide check` without --cuda-arch plans for.
        const tile::TilePrograms tiles(context, program, tile::tile_target({}));
        rules::run_all_rules({context, program, device, tiles, collected});
      }
      findings_ = std::move(collected.findings);
    }
    return *findings_;
  }

 private:
  std::optional<std::vector<diag::Finding>> findings_;
};

// clang-tidy reads a diagnostic's text as a format string.
std::string escape_format(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    if (c == '%') escaped += '%';
    escaped += c;
  }
  return escaped;
}

class RuleCheck final : public clang::tidy::ClangTidyCheck {
 public:
  RuleCheck(llvm::StringRef name, clang::tidy::ClangTidyContext* context)
      : ClangTidyCheck(name, context), rule_(name.str()), unit_(UnitFindings::for_current_unit()) {}

  bool isLanguageVersionSupported(const clang::LangOptions& language) const override {
    return language.CPlusPlus17;
  }

  void registerMatchers(MatchFinder* finder) override {
    finder->addMatcher(clang::ast_matchers::translationUnitDecl().bind("unit"), this);
  }

  void check(const MatchFinder::MatchResult& result) override {
    for (const diag::Finding& finding : unit_->of(*result.Context)) {
      if (finding.rule != rule_) continue;
      {
        // Every finding is a warning of its check, the translator's errors too: clang-tidy
        // counts a check's error as a compiler error, and then --fix applies nothing without
        // --fix-errors. --warnings-as-errors='carbide-*' raises them again.
        auto builder = diag(finding.location, escape_format(finding.message));
        for (const clang::CharSourceRange& range : finding.highlights) builder << range;
        for (const diag::FixIt& fix : finding.fixits)
          builder << clang::FixItHint::CreateReplacement(fix.range, fix.replacement);
      }
      for (const diag::Note& note : finding.notes)
        diag(note.location, escape_format(note.message), clang::DiagnosticIDs::Note);
    }
  }

 private:
  std::string rule_;
  std::shared_ptr<UnitFindings> unit_;
};

class CarbideModule final : public clang::tidy::ClangTidyModule {
 public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories& factories) override {
    for (const auto& rule : rules::make_all_rules()) {
      factories.registerCheckFactory(
          rule->name(), [](llvm::StringRef name, clang::tidy::ClangTidyContext* context) {
            return std::make_unique<RuleCheck>(name, context);
          });
    }
  }
};

clang::tidy::ClangTidyModuleRegistry::Add<CarbideModule> registration(
    "carbide-module", "Carbide's ownership and race rules for annotated GPU kernels.");

}  // namespace
}  // namespace carbide::tidy
