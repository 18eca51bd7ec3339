#include "divergent_barrier.hpp"

#include "analysis/thread_values.hpp"

#include <clang/AST/RecursiveASTVisitor.h>

namespace carbide::rules {
namespace {

using analysis::Uniformity;

// The collectives, and how uniform the control flow around each must be.
std::optional<Uniformity> required_uniformity(const std::string& callee) {
  if (callee == "carbide::block::sync") return Uniformity::Uniform;
  for (const char* collective : {"shfl_down", "shfl_xor", "reduce_add", "ballot", "any", "all"})
    if (callee == std::string("carbide::warp::") + collective) return Uniformity::WarpUniform;
  return std::nullopt;
}

struct Collectives : clang::RecursiveASTVisitor<Collectives> {
  std::vector<std::pair<const clang::CallExpr*, Uniformity>> found;
  bool VisitCallExpr(clang::CallExpr* call) {
    if (auto required = required_uniformity(analysis::callee_name(call)))
      found.push_back({call, *required});
    return true;
  }
};

}  // namespace

void DivergentBarrierRule::check(const RuleContext& context) {
  for (const clang::FunctionDecl* function : context.device.definitions()) {
    Collectives collectives;
    collectives.TraverseStmt(function->getBody());
    if (collectives.found.empty()) continue;
    const analysis::ThreadValues& values = context.device.thread_values(function);
    for (const auto& [call, required] : collectives.found) {
      const bool barrier = required == Uniformity::Uniform;
      const std::string what = "'" + source_text(context.ast, call) + "'";
      const std::string who = barrier ? "every thread of the block" : "every lane of the warp";
      for (const analysis::ThreadValues::Condition& condition : values.conditions_for(call)) {
        if (values.uniformity(condition.expr) <= required) continue;
        const std::string test = "'" + source_text(context.ast, condition.expr) + "'";
        auto result = finding(name(), diag::Severity::Error, call->getBeginLoc(), "",
                              call->getSourceRange());
        if (condition.early_return) {
          result.message = what + " comes after a thread-dependent early return; " + who +
                           " must reach it. Let every thread run to the barrier and guard the "
                           "work instead of returning";
          result.notes.push_back({condition.early_return->getBeginLoc(),
                                  "threads where " + test + " holds return here"});
        } else {
          result.message = what + " is under " + test + ", which differs between threads; " +
                           who + " must reach it, or the " +
                           (barrier ? "block deadlocks or reads stale data"
                                    : "collective reads lanes that are not there") +
                           ". Move it out of the branch";
          result.notes.push_back({condition.expr->getBeginLoc(),
                                  barrier ? "this condition depends on the thread"
                                          : "this condition is not the same for a whole warp"});
        }
        context.reporter.report(std::move(result));
        break;  // one diagnostic per barrier
      }
    }
  }
}

}  // namespace carbide::rules
