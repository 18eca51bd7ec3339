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

#include <llvm/ADT/ArrayRef.h>

#include <map>
#include <memory>
#include <set>
#include <vector>

namespace carbide::analysis {

class CallSiteInvariants;

class LaunchInvariants {
 public:
  // A kernel's by-value parameters count. A helper's come from its callers: they count where
  // `call_sites` shows every call of the helper passing an invariant value, and never without it.
  LaunchInvariants(const clang::ASTContext& ast, const clang::FunctionDecl* function,
                   CallSiteInvariants* call_sites = nullptr);
  bool invariant(const clang::Expr* expr) const;

 private:
  bool invariant(const clang::Expr* expr, int depth) const;
  bool invariant_variable(const clang::VarDecl* variable, int depth) const;

  const clang::ASTContext& ast_;
  const clang::FunctionDecl* function_;
  bool is_kernel_;
  CallSiteInvariants* call_sites_;
  std::set<const clang::VarDecl*> changed_;  // assigned, stepped, bound to a mutable reference or address-taken
};

// A helper's by-value parameter is launch-invariant when every call of the helper in the device
// code (`definitions`, every function that may run there) passes it a value invariant in the
// caller, the caller's own parameters judged the same way. Device code calls functions only by
// name (a function used as a value is refused), so those calls are all the calls. Memoized; a
// parameter met again while it is being decided (recursion) is not invariant.
class CallSiteInvariants {
 public:
  CallSiteInvariants(const clang::ASTContext& ast, llvm::ArrayRef<const clang::FunctionDecl*> definitions);
  bool parameter(const clang::ParmVarDecl* parameter);
  const LaunchInvariants& of(const clang::FunctionDecl* function);

 private:
  struct Call {
    const clang::CallExpr* call;
    const clang::FunctionDecl* caller;
  };
  const clang::ASTContext& ast_;
  std::map<const clang::FunctionDecl*, std::vector<Call>> calls_;  // by callee definition
  std::map<const clang::FunctionDecl*, std::unique_ptr<LaunchInvariants>> functions_;
  std::map<const clang::ParmVarDecl*, bool> decided_;
  std::set<const clang::ParmVarDecl*> deciding_;
};

}  // namespace carbide::analysis
