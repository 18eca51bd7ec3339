#include "analysis/changed_variables.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

namespace carbide::analysis {
namespace {

const clang::VarDecl* named_variable(const clang::Expr* expr) {
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
  return ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

struct ChangeFinder : clang::RecursiveASTVisitor<ChangeFinder> {
  ChangedVariables found;
  void note(std::set<const clang::VarDecl*>& into, const clang::Expr* expr) {
    if (const clang::VarDecl* variable = named_variable(expr)) into.insert(variable);
  }
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->isAssignmentOp()) note(found.assigned, op->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->isIncrementDecrementOp()) note(found.assigned, op->getSubExpr());
    if (op->getOpcode() == clang::UO_AddrOf) note(found.aliased, op->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr* call) {
    if (call->isAssignmentOp() && call->getNumArgs() > 0) note(found.assigned, call->getArg(0));
    return true;
  }
  bool VisitVarDecl(clang::VarDecl* reference) {
    // `int& r = s;` lets `r` change `s`.
    if (reference->getType()->isReferenceType() &&
        !reference->getType().getNonReferenceType().isConstQualified() && reference->getInit())
      note(found.aliased, reference->getInit());
    return true;
  }
  bool VisitCallExpr(clang::CallExpr* call) {
    // An argument bound to a mutable reference parameter.
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (!callee) return true;
    for (unsigned i = 0; i < call->getNumArgs() && i < callee->getNumParams(); ++i) {
      const clang::QualType type = callee->getParamDecl(i)->getType();
      if (type->isReferenceType() && !type.getNonReferenceType().isConstQualified())
        note(found.aliased, call->getArg(i));
    }
    return true;
  }
};

}  // namespace

ChangedVariables changed_variables(const clang::Stmt* statement) {
  ChangeFinder finder;
  if (statement != nullptr) finder.TraverseStmt(const_cast<clang::Stmt*>(statement));
  return std::move(finder.found);
}

}  // namespace carbide::analysis
