#include "analysis/collective_sites.hpp"

#include <clang/AST/RecursiveASTVisitor.h>

namespace carbide::analysis {

namespace vocabulary = model::vocabulary;

const std::vector<CollectiveSite>& CollectiveSites::in(const clang::FunctionDecl* function) const {
  if (auto found = sites_.find(function); found != sites_.end()) return found->second;
  in_progress_[function] = true;
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const CollectiveSites* owner;
    std::vector<CollectiveSite> found;
    bool VisitCallExpr(clang::CallExpr* call) {
      if (auto arrival = vocabulary::required_arrival(call)) {
        found.push_back({call, call, *arrival});
      } else if (const clang::FunctionDecl* callee = call->getDirectCallee()) {
        if (const CollectiveSite* inner = owner->reached_through(callee))
          found.push_back({call, inner->collective, inner->arrival});
      }
      return true;
    }
  } finder;
  finder.owner = this;
  if (function->getBody() != nullptr) finder.TraverseStmt(function->getBody());
  in_progress_[function] = false;
  return sites_[function] = std::move(finder.found);
}

const CollectiveSite* CollectiveSites::reached_through(const clang::FunctionDecl* function) const {
  const clang::FunctionDecl* definition = function->getDefinition();
  if (definition == nullptr || vocabulary::is_carbide(definition) || in_progress_[definition])
    return nullptr;
  const CollectiveSite* strongest = nullptr;
  for (const CollectiveSite& site : in(definition))
    if (strongest == nullptr || (site.arrival == vocabulary::Arrival::Block &&
                                 strongest->arrival != vocabulary::Arrival::Block))
      strongest = &site;
  return strongest;
}

}  // namespace carbide::analysis
