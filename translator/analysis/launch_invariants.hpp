// Which values every thread of a launch computes alike and keeps for the whole kernel: integer
// constants, a kernel's by-value parameters that its body never changes, the extents of views
// (size(), rows(), ...), and const locals initialised from those. A butterfly's stride must be
// such a value: pairs at one stride never share an element, but a thread at another stride (or
// at the same one a loop iteration later, with no grid-wide barrier between) could reach one.
// Reports nothing itself.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include <set>

namespace carbide::analysis {

class LaunchInvariants {
 public:
  // A kernel's by-value parameters count; a helper's come from callers it cannot see, so they never do.
  LaunchInvariants(const clang::ASTContext& ast, const clang::FunctionDecl* function);
  bool invariant(const clang::Expr* expr) const;

 private:
  bool invariant(const clang::Expr* expr, int depth) const;
  bool invariant_variable(const clang::VarDecl* variable, int depth) const;

  const clang::ASTContext& ast_;
  const clang::FunctionDecl* function_;
  bool is_kernel_;
  std::set<const clang::VarDecl*> changed_;  // assigned, stepped, bound to a mutable reference or address-taken
};

}  // namespace carbide::analysis
