#include "analysis/launch_invariants.hpp"

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

// Every variable the body may change after its initialisation.
struct ChangeFinder : clang::RecursiveASTVisitor<ChangeFinder> {
  std::set<const clang::VarDecl*> changed;
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->isAssignmentOp())
      if (const clang::VarDecl* variable = named_variable(op->getLHS())) changed.insert(variable);
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->isIncrementDecrementOp() || op->getOpcode() == clang::UO_AddrOf)
      if (const clang::VarDecl* variable = named_variable(op->getSubExpr())) changed.insert(variable);
    return true;
  }
  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr* call) {
    if (call->isAssignmentOp() && call->getNumArgs() > 0)
      if (const clang::VarDecl* variable = named_variable(call->getArg(0))) changed.insert(variable);
    return true;
  }
  bool VisitVarDecl(clang::VarDecl* reference) {
    // `int& r = s;` lets `r` change `s`.
    if (reference->getType()->isReferenceType() &&
        !reference->getType().getNonReferenceType().isConstQualified() && reference->getInit())
      if (const clang::VarDecl* variable = named_variable(reference->getInit())) changed.insert(variable);
    return true;
  }
  bool VisitCallExpr(clang::CallExpr* call) {
    // An argument bound to a mutable reference parameter.
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (!callee) return true;
    for (unsigned i = 0; i < call->getNumArgs() && i < callee->getNumParams(); ++i) {
      const clang::QualType type = callee->getParamDecl(i)->getType();
      if (type->isReferenceType() && !type.getNonReferenceType().isConstQualified())
        if (const clang::VarDecl* variable = named_variable(call->getArg(i))) changed.insert(variable);
    }
    return true;
  }
};

}  // namespace

LaunchInvariants::LaunchInvariants(const clang::ASTContext& ast, const clang::FunctionDecl* function)
    : ast_(ast), function_(function), is_kernel_(model::is_kernel(function)) {
  ChangeFinder finder;
  if (const clang::Stmt* body = function->getBody()) finder.TraverseStmt(const_cast<clang::Stmt*>(body));
  changed_ = std::move(finder.changed);
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
