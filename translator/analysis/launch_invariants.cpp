#include "analysis/launch_invariants.hpp"

#include "analysis/changed_variables.hpp"
#include "analysis/shared_accesses.hpp"
#include "model/annotations.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

namespace carbide::analysis {
namespace {

constexpr int kMaxDepth = 64;  // a const chained through more locals than this is not trusted

const clang::VarDecl* named_variable(const clang::Expr* expr) {
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
  return ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

}  // namespace

LaunchInvariants::LaunchInvariants(const clang::ASTContext& ast, const clang::FunctionDecl* function,
                                   CallSiteInvariants* call_sites)
    : ast_(ast), function_(function), is_kernel_(model::is_kernel(function)), call_sites_(call_sites) {
  ChangedVariables changed = changed_variables(function->getBody());
  changed_ = std::move(changed.assigned);
  changed_.insert(changed.aliased.begin(), changed.aliased.end());
}

bool LaunchInvariants::invariant(const clang::Expr* expr) const { return invariant(expr, 0); }

bool LaunchInvariants::invariant_variable(const clang::VarDecl* variable, int depth) const {
  if (changed_.count(variable)) return false;
  if (const auto* parameter = llvm::dyn_cast<clang::ParmVarDecl>(variable)) {
    if (parameter->getDeclContext() != function_ || parameter->getType()->isReferenceType()) return false;
    return is_kernel_ || (call_sites_ != nullptr && call_sites_->parameter(parameter));
  }
  // A local that nothing changes after its initialiser: const, or never assigned (the finder
  // saw every assignment in the body). Static and thread-local storage are shared or reset.
  if (!variable->hasLocalStorage() || variable->getType()->isReferenceType() || !variable->getInit())
    return false;
  return invariant(variable->getInit(), depth + 1);
}

bool LaunchInvariants::invariant(const clang::Expr* expr, int depth) const {
  if (depth > kMaxDepth) return false;
  expr = expr->IgnoreParenImpCasts();
  if (expr->isValueDependent() || expr->isTypeDependent()) return false;
  if (expr->isIntegerConstantExpr(ast_)) return true;
  if (const clang::VarDecl* variable = named_variable(expr)) return invariant_variable(variable, depth);
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(expr))
    return !op->isAssignmentOp() && !op->isCommaOp() && invariant(op->getLHS(), depth + 1) &&
           invariant(op->getRHS(), depth + 1);
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(expr))
    return !op->isIncrementDecrementOp() && op->getOpcode() != clang::UO_AddrOf &&
           op->getOpcode() != clang::UO_Deref && invariant(op->getSubExpr(), depth + 1);
  if (const auto* conditional = llvm::dyn_cast<clang::ConditionalOperator>(expr))
    return invariant(conditional->getCond(), depth + 1) &&
           invariant(conditional->getTrueExpr(), depth + 1) &&
           invariant(conditional->getFalseExpr(), depth + 1);
  if (const auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(expr))
    return invariant(cast->getSubExpr(), depth + 1);
  if (const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr)) {
    // in.size(): a view's extent is the same in every thread that holds the same view.
    const clang::CXXMethodDecl* method = call->getMethodDecl();
    const clang::VarDecl* view = named_variable(call->getImplicitObjectArgument());
    return method && model::vocabulary::is_extent_query(method) && call->getNumArgs() == 0 &&
           view && invariant_variable(view, depth + 1);
  }
  return false;
}

CallSiteInvariants::CallSiteInvariants(const clang::ASTContext& ast,
                                       llvm::ArrayRef<const clang::FunctionDecl*> definitions)
    : ast_(ast) {
  struct Calls : clang::RecursiveASTVisitor<Calls> {
    std::vector<const clang::CallExpr*> found;
    bool shouldVisitImplicitCode() const { return true; }
    bool VisitCallExpr(clang::CallExpr* call) {
      found.push_back(call);
      return true;
    }
  };
  for (const clang::FunctionDecl* caller : definitions) {
    Calls calls;
    calls.TraverseStmt(const_cast<clang::Stmt*>(caller->getBody()));
    for (const clang::CallExpr* call : calls.found)
      if (const clang::FunctionDecl* callee = call->getDirectCallee())
        if (const clang::FunctionDecl* definition = callee->getDefinition())
          calls_[definition].push_back({call, caller});
  }
}

const LaunchInvariants& CallSiteInvariants::of(const clang::FunctionDecl* function) {
  auto& facts = functions_[function];
  if (!facts) facts = std::make_unique<LaunchInvariants>(ast_, function, this);
  return *facts;
}

bool CallSiteInvariants::parameter(const clang::ParmVarDecl* parameter) {
  if (auto found = decided_.find(parameter); found != decided_.end()) return found->second;
  if (!deciding_.insert(parameter).second) return false;
  const auto* helper = llvm::dyn_cast<clang::FunctionDecl>(parameter->getDeclContext());
  const clang::FunctionDecl* definition = helper ? helper->getDefinition() : nullptr;
  bool every_call = definition != nullptr && !llvm::isa<clang::CXXConstructorDecl>(definition);
  if (every_call) {
    const auto found = calls_.find(definition);
    for (const Call& call : found == calls_.end() ? std::vector<Call>{} : found->second) {
      const unsigned argument = first_parameter_argument(call.call) + parameter->getFunctionScopeIndex();
      if (argument >= call.call->getNumArgs() || !of(call.caller).invariant(call.call->getArg(argument))) {
        every_call = false;
        break;
      }
    }
  }
  deciding_.erase(parameter);
  decided_[parameter] = every_call;
  return every_call;
}

}  // namespace carbide::analysis
