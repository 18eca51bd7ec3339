#include "whole_store.hpp"

#include "analysis/view_claims.hpp"
#include "model/vocabulary.hpp"


namespace carbide::rules {
namespace {

constexpr const char* kInstead =
    "Claim the chunk where it is stored (`if (auto c = out.get_mut_chunk<K>(idx)) c.store_whole(v);`), "
    "from a kernel parameter or a helper's view parameter passed by name, or use store(), which cuts a "
    "partial chunk";

void report_untraced(const RuleContext& context, std::string_view rule, const clang::Expr* where) {
  const auto* store = llvm::dyn_cast<clang::CXXMemberCallExpr>(where);
  const std::string what = "'" + source_text(context.ast, where) + "'";
  std::string message;
  if (store && analysis::is_whole_store(store))
    message = what + " stores a whole chunk of a chunk that this function did not claim, so the launch cannot "
                     "check that its view is whole chunks. ";
  else
    message = what + " passes a view that the helper stores whole chunks of, but not by name, so the launch "
                     "cannot check that it is whole chunks. ";
  context.reporter.report(finding(rule, diag::Severity::Error, where->getBeginLoc(), message + kInstead,
                                  where->getSourceRange()));
}

// A parameter the callers' claims follow: a disjoint_span, by value or by reference.
bool followed_parameter(const clang::ValueDecl* view) {
  return llvm::isa<clang::ParmVarDecl>(view) &&
         model::vocabulary::view_kind(view->getType().getNonReferenceType()->getAsCXXRecordDecl()) ==
             model::vocabulary::View::Exclusive;
}

}  // namespace

void WholeStoreRule::check(const RuleContext& context) {
  // A helper reached through a pointer receives a view no launch checked: carbide-device-unsupported
  // refuses every use of a function as a value, so the helpers are followed through direct calls.
  analysis::ViewClaimFinder& claims = context.device.view_claims();
  for (const clang::FunctionDecl* function : context.device.definitions()) {
    for (const clang::Expr* untraced : claims.untraced_whole_stores(function)) report_untraced(context, name(), untraced);
    for (const auto& [view, made] : claims.claims_of(function)) {
      if (followed_parameter(view)) continue;
      for (const analysis::ViewClaim& claim : made) {
        if (!claim.whole_chunk) continue;
        const std::string view_name = view->getNameAsString();
        context.reporter.report(finding(
            name(), diag::Severity::Error, claim.site->getBeginLoc(),
            "'" + source_text(context.ast, claim.site) + "' stores whole chunks of " + std::to_string(*claim.whole_chunk) +
                " into '" + view_name + "', but '" + view_name +
                "' is not a view parameter (a local copy of a view, say): the launch checks that a view is whole "
                "chunks only for a kernel parameter. Claim the parameter itself (or pass it to the helper that claims it)",
            claim.site->getSourceRange()));
        break;
      }
    }
  }
}

}  // namespace carbide::rules
