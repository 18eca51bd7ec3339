// Where a device function reaches a barrier or a warp collective: by calling one, or by calling a
// helper whose body reaches one (through any depth of helpers). The divergent-barrier rule checks
// the control flow around each site, so a barrier hidden in a helper is held to the same rule as
// one written in place.
#pragma once

#include "model/vocabulary.hpp"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include <map>
#include <vector>

namespace carbide::analysis {

struct CollectiveSite {
  const clang::CallExpr* call = nullptr;        // in the function: the collective or the helper call
  const clang::CallExpr* collective = nullptr;  // the collective itself (`call` when direct)
  model::vocabulary::Arrival arrival = model::vocabulary::Arrival::Block;
};

class CollectiveSites {
 public:
  // The sites in `function`'s body, in source order.
  const std::vector<CollectiveSite>& in(const clang::FunctionDecl* function) const;

 private:
  // The collective a call of `function` reaches, a barrier before a warp collective; null if none.
  const CollectiveSite* reached_through(const clang::FunctionDecl* function) const;

  mutable std::map<const clang::FunctionDecl*, std::vector<CollectiveSite>> sites_;
  mutable std::map<const clang::FunctionDecl*, bool> in_progress_;  // recursion ends the walk
};

}  // namespace carbide::analysis
