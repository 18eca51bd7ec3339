#include "disjoint_foreign_write.hpp"

#include "device_walk.hpp"

#include "analysis/launch_invariants.hpp"
#include "analysis/view_claims.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

namespace carbide::rules {
namespace {

class Finder : public DeviceCodeFinder<Finder> {
 public:
  using DeviceCodeFinder::DeviceCodeFinder;

  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr* subscript) {
    const clang::Expr* base = subscript->getBase();
    if (!base->IgnoreParenImpCasts()->getType()->isPointerType()) return true;
    // p[0] is *p: the thread's own element.
    if (auto index = subscript->getIdx()->getIntegerConstantExpr(context_.ast); index && *index == 0)
      return true;
    check(subscript, base, "reaches past");
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->isAdditiveOp() || op->getOpcode() == clang::BO_AddAssign ||
        op->getOpcode() == clang::BO_SubAssign) {
      for (const clang::Expr* side : {op->getLHS(), op->getRHS()})
        if (side->getType()->isPointerType()) check(op, side, "moves away from");
    }
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->isIncrementDecrementOp() && op->getSubExpr()->getType()->isPointerType())
      check(op, op->getSubExpr(), "moves away from");
    return true;
  }

 private:
  void check(const clang::Expr* at, const clang::Expr* pointer, const char* verb) {
    const analysis::Provenance origin = context_.device.provenance(pointer);
    if (origin.origin != analysis::PointerOrigin::ViewElement) return;
    const clang::Expr* view = origin.get_mut->getImplicitObjectArgument()->IgnoreParenImpCasts();
    auto result = error(at->getBeginLoc(),
                        "'" + source_text(context_.ast, at) + "' " + verb +
                            " the element that '" + source_text(context_.ast, origin.get_mut) +
                            "' gave this thread; that element belongs to another thread",
                        at->getSourceRange());
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(view))
      result.notes.push_back({ref->getDecl()->getLocation(),
                              "'" + ref->getDecl()->getNameAsString() +
                                  "' is a carbide::disjoint_span: each thread owns exactly one "
                                  "element"});
    context_.reporter.report(std::move(result));
  }
};

// Two ownership forms of one view give some element to two threads (thread 1's element is in
// thread 0's chunk of four), so every claim a function makes on a view, itself or through the
// helpers it passes the view to, must have the same form.
void report_mixed_forms(const RuleContext& context, std::string_view rule) {
  analysis::ViewClaimFinder& claims = context.device.view_claims();
  for (const clang::FunctionDecl* function : context.device.definitions())
    for (const auto& [view, made] : claims.claims_of(function)) {
      const analysis::ViewClaim& first = made.front();
      for (const analysis::ViewClaim& later : made) {
        // Claims that meet inside one helper are reported in the helper.
        if (later.form == first.form || later.site == first.site) continue;
        const std::string name = view->getNameAsString();
        const bool through_helper = later.site != later.claim;
        auto result = finding(
            rule, diag::Severity::Error, later.site->getBeginLoc(),
            "'" + source_text(context.ast, later.site) + "' claims '" + name + "' as '" + later.form +
                "'" + (through_helper ? " (through '" + source_text(context.ast, later.claim) + "')" : "") +
                " after '" + source_text(context.ast, first.site) + "' claimed it as '" + first.form +
                "'; the two forms give some elements to two threads. Claim every piece of '" + name +
                "' the same way",
            later.site->getSourceRange());
        result.notes.push_back({first.claim->getBeginLoc(), "the other form"});
        if (through_helper) result.notes.push_back({later.claim->getBeginLoc(), "the claim in the helper"});
        context.reporter.report(std::move(result));
      }
    }
}

// A view claimed at transposed block coordinates is exclusive only while the launch grid is the
// view's tile grid transposed, and the stub can check that only of a kernel parameter: a local
// copy of a view, claimed that way, would escape the check.
void report_transposed_copies(const RuleContext& context, std::string_view rule) {
  analysis::ViewClaimFinder& claims = context.device.view_claims();
  for (const clang::FunctionDecl* function : context.device.definitions())
    for (const auto& [view, made] : claims.claims_of(function)) {
      if (llvm::isa<clang::ParmVarDecl>(view)) continue;
      const auto transposed =
          llvm::find_if(made, [](const analysis::ViewClaim& claim) { return claim.transposed.has_value(); });
      if (transposed == made.end()) continue;
      const std::string name = view->getNameAsString();
      context.reporter.report(finding(
          rule, diag::Severity::Error, transposed->site->getBeginLoc(),
          "'" + source_text(context.ast, transposed->site) + "' claims '" + name +
              "' with thread::index_2d_transposed(), but '" + name +
              "' is a local copy of a view: the launch checks the grid only against the tile grid "
              "of a kernel parameter. Claim the parameter itself (or pass it to the helper that "
              "claims it)",
          transposed->site->getSourceRange()));
    }
}

// Pairs at one stride never share an element, but pairs at two strides can; blocks' regions of
// one size never overlap, of two sizes they do. So the argument a claim's partition depends on
// must be one value for every thread and the whole kernel (there is no grid-wide barrier between
// a loop's iterations).
void report_variant_sizes(const RuleContext& context, std::string_view rule) {
  analysis::CallSiteInvariants call_sites(context.ast, context.device.definitions());
  for (const clang::FunctionDecl* function : context.device.definitions()) {
    const analysis::LaunchInvariants& invariants = call_sites.of(function);
    struct Walker : clang::RecursiveASTVisitor<Walker> {
      std::vector<const clang::CXXMemberCallExpr*> claims;
      bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr* call) {
        const auto sized = model::vocabulary::sized_claim(call->getMethodDecl());
        if (sized && sized->argument < call->getNumArgs()) claims.push_back(call);
        return true;
      }
    } walker;
    walker.TraverseStmt(const_cast<clang::Stmt*>(function->getBody()));
    for (const clang::CXXMemberCallExpr* claim : walker.claims) {
      const auto sized = model::vocabulary::sized_claim(claim->getMethodDecl());
      const clang::Expr* size = claim->getArg(sized->argument);
      if (invariants.invariant(size)) continue;
      const std::string what = sized->what.str();
      context.reporter.report(finding(
          rule, diag::Severity::Error, size->getBeginLoc(),
          "the " + what + " '" + source_text(context.ast, size) + "' of '" +
              source_text(context.ast, claim) +
              "' may differ between threads or change while the kernel runs, and claims with two "
              "different values share elements; pass a kernel parameter, a constant, or a local "
              "computed only from those (one launch per value); a helper's parameter counts where "
              "every call of the helper passes one",
          size->getSourceRange()));
    }
  }
}

}  // namespace

void DisjointForeignWriteRule::check(const RuleContext& context) {
  Finder(context, name()).run();
  report_mixed_forms(context, name());
  report_transposed_copies(context, name());
  report_variant_sizes(context, name());
}

}  // namespace carbide::rules
