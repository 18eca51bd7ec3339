#include "analysis/launch_invariants.hpp"

#include "analysis/changed_variables.hpp"
#include "model/annotations.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/ExprCXX.h>

namespace carbide::analysis {
namespace {

constexpr int kMaxDepth = 64;  // a const chained through more locals than this is not trusted

const clang::VarDecl* named_variable(const clang::Expr* expr) {
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
  return ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

}  // namespace

LaunchInvariants::LaunchInvariants(const clang::ASTContext& ast, const clang::FunctionDecl* function)
    : ast_(ast), function_(function), is_kernel_(model::is_kernel(function)) {
  ChangedVariables changed = changed_variables(function->getBody());
  changed_ = std::move(changed.assigned);
  changed_.insert(changed.aliased.begin(), changed.aliased.end());
}

bool LaunchInvariants::invariant(const clang::Expr* expr) const { return invariant(expr, 0); }

bool LaunchInvariants::invariant_variable(const clang::VarDecl* variable, int depth) const {
  if (changed_.count(variable)) return false;
  if (const auto* parameter = llvm::dyn_cast<clang::ParmVarDecl>(variable))
    return is_kernel_ && parameter->getDeclContext() == function_ &&
           !parameter->getType()->isReferenceType();
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

}  // namespace carbide::analysis
