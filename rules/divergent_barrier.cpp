#include "divergent_barrier.hpp"

#include "analysis/thread_values.hpp"

#include <set>

namespace carbide::rules {
namespace {

using analysis::Uniformity;
using model::vocabulary::Arrival;

std::string_view exit_verb(const clang::Stmt* exit) {
  if (llvm::isa<clang::BreakStmt>(exit)) return "break out of the loop";
  if (llvm::isa<clang::ContinueStmt>(exit)) return "skip to the next iteration";
  if (llvm::isa<clang::GotoStmt>(exit)) return "jump away";
  return "return";
}

std::string exit_noun(const clang::Stmt* exit) {
  if (llvm::isa<clang::BreakStmt>(exit)) return "'break'";
  if (llvm::isa<clang::ContinueStmt>(exit)) return "'continue'";
  if (llvm::isa<clang::GotoStmt>(exit)) return "'goto'";
  return "early return";
}

// One function's barriers and collectives, in one block it runs in.
void check_in_shape(const RuleContext& context, std::string_view rule, const clang::FunctionDecl* function,
                    const std::vector<analysis::CollectiveSite>& sites, const analysis::ThreadValues& values,
                    std::set<const clang::CallExpr*>& reported) {
  if (!values.control().available()) {
    if (!reported.insert(sites.front().call).second) return;
    context.reporter.report(finding(
        rule, diag::Severity::Error, sites.front().call->getBeginLoc(),
        "the checker could not build the control-flow graph of '" + function->getNameAsString() +
            "', so it cannot show that every thread reaches this barrier; simplify the "
            "function's control flow",
        sites.front().call->getSourceRange()));
    return;
  }
  for (const analysis::CollectiveSite& site : sites) {
    const bool barrier = site.arrival == Arrival::Block;
    // A warp collective reads all 32 lanes: a block whose size is no multiple of 32 has a last
    // warp with lanes that do not exist, whatever the control flow.
    if (const auto threads = values.shape().threads(); !barrier && threads && *threads % 32 != 0) {
      auto result = finding(rule, diag::Severity::Error, site.call->getBeginLoc(),
                            "'" + source_text(context.ast, site.call) + "' " +
                                (site.call != site.collective
                                     ? "reaches '" + source_text(context.ast, site.collective) + "', which "
                                     : "") +
                                "reads all 32 lanes of a warp, but a block of " + std::to_string(*threads) +
                                " threads leaves its last warp " + std::to_string(*threads % 32) +
                                " lanes; make the contract's block a multiple of 32",
                            site.call->getSourceRange());
      if (auto note = calling_shape_note(context, values)) result.notes.push_back(std::move(*note));
      if (reported.insert(site.call).second) context.reporter.report(std::move(result));
      continue;
    }
    const Uniformity required = barrier ? Uniformity::Uniform : Uniformity::WarpUniform;
    const bool through_helper = site.call != site.collective;
    const std::string what = "'" + source_text(context.ast, site.call) + "'" +
                             (through_helper ? " reaches '" + source_text(context.ast, site.collective) +
                                                   "' and"
                                             : "");
    const std::string who = barrier ? "every thread of the block" : "every lane of the warp";
    for (const analysis::ControlCondition& condition : values.control().conditions_for(site.call)) {
      if (values.uniformity(condition.expr) <= required || condition.other_way_stops) continue;
      // A range-for's test is implicit: name the range it runs over.
      const auto* range_loop = llvm::dyn_cast_or_null<clang::CXXForRangeStmt>(condition.branch);
      const std::string test =
          range_loop ? "the loop over '" + source_text(context.ast, range_loop->getRangeInit()) + "'"
                     : "'" + source_text(context.ast, condition.expr) + "'";
      auto result = finding(rule, diag::Severity::Error, site.call->getBeginLoc(), "",
                            site.call->getSourceRange());
      if (!condition.encloses) {
        const clang::Stmt* exit = condition.exit ? condition.exit : condition.expr;
        result.message = what + " comes after a thread-dependent " + exit_noun(exit) + "; " + who +
                         " must reach it. Let every thread run to the barrier and guard the "
                         "work instead of leaving";
        const std::string when = !condition.holds ? "threads for which " + test + " differs"
                                 : *condition.holds ? "threads where " + test + " fails"
                                                    : "threads where " + test + " holds";
        result.notes.push_back({exit->getBeginLoc(), when + " " + std::string(exit_verb(exit)) + " here"});
      } else {
        result.message = what + " is under " + test + ", which differs between threads; " +
                         who + " must reach it, or the " +
                         (barrier ? "block deadlocks or reads stale data"
                                  : "collective reads lanes that are not there") +
                         ". Move it out of the branch";
        const std::string tested = range_loop ? "this range" : "this condition";
        result.notes.push_back({range_loop ? range_loop->getRangeInit()->getBeginLoc() : condition.expr->getBeginLoc(),
                                tested + (barrier ? " depends on the thread" : " is not the same for a whole warp")});
      }
      if (through_helper)
        result.notes.push_back({site.collective->getBeginLoc(),
                                std::string(barrier ? "the barrier" : "the collective") +
                                    " the call reaches"});
      if (auto note = calling_shape_note(context, values)) result.notes.push_back(std::move(*note));
      if (reported.insert(site.call).second) context.reporter.report(std::move(result));
      break;  // one diagnostic per barrier
    }
  }
}

}  // namespace

void DivergentBarrierRule::check(const RuleContext& context) {
  for (const clang::FunctionDecl* function : context.device.definitions()) {
    const std::vector<analysis::CollectiveSite>& sites = context.device.collective_sites().in(function);
    if (sites.empty()) continue;
    // A helper is checked in each block its callers run it in; one diagnostic per barrier.
    std::set<const clang::CallExpr*> reported;
    for (const analysis::BlockShape& shape : context.device.calling_shapes(function))
      check_in_shape(context, name(), function, sites, context.device.thread_values(function, shape), reported);
  }
}

}  // namespace carbide::rules
