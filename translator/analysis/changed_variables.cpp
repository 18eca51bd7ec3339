#include "analysis/changed_variables.hpp"

#include "model/vocabulary.hpp"

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

bool transparent(const clang::Stmt* node) {
  if (llvm::isa<clang::ParenExpr>(node)) return true;
  const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(node);
  return cast && cast->getCastKind() == clang::CK_NoOp;  // adds const
}

// The variable `used` names through parentheses and added consts, if it names one.
const clang::DeclRefExpr* named_use(const clang::Expr* used) {
  while (transparent(used)) used = llvm::cast<clang::Expr>(*used->child_begin());
  return llvm::dyn_cast<clang::DeclRefExpr>(used);
}

bool carbide_const_method(const clang::Decl* decl) {
  const auto* method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(decl);
  return method && method->isConst() && model::vocabulary::is_carbide(method);
}

// Whether `user` reads or assigns the variable that its operand `used` names: reads its value,
// assigns or steps it by name, calls a const member function of Carbide's on it (a view's size(),
// operator[]), copies it or passes it by value, or binds it to a const reference parameter of
// Carbide's own functions. Const references elsewhere could be cast back to mutable ones.
bool reads_or_assigns(const clang::Stmt* user, const clang::Expr* used) {
  if (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(user)) return cast->getCastKind() == clang::CK_LValueToRValue;
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(user)) return op->isAssignmentOp() && op->getLHS() == used;
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(user)) return op->isIncrementDecrementOp();
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(user)) return carbide_const_method(member->getMemberDecl());
  if (const auto* call = llvm::dyn_cast<clang::CXXOperatorCallExpr>(user); call && call->getNumArgs() > 0 && call->getArg(0) == used)
    return call->isAssignmentOp() || carbide_const_method(call->getDirectCallee());
  const clang::FunctionDecl* callee = nullptr;
  llvm::ArrayRef<const clang::Expr*> arguments;
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(user)) {
    callee = call->getDirectCallee();
    arguments = llvm::ArrayRef(call->getArgs(), call->getNumArgs());
  } else if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(user)) {
    callee = construct->getConstructor();
    arguments = llvm::ArrayRef(construct->getArgs(), construct->getNumArgs());
  }
  if (callee == nullptr) return false;
  for (unsigned i = 0; i < arguments.size(); ++i)
    if (arguments[i] == used) {
      if (i >= callee->getNumParams()) return false;
      const clang::QualType type = callee->getParamDecl(i)->getType();
      return !type->isReferenceType() ||
             (type.getNonReferenceType().isConstQualified() && model::vocabulary::is_carbide(callee));
    }
  return false;
}

struct EscapeFinder : clang::RecursiveASTVisitor<EscapeFinder> {
  std::set<const clang::VarDecl*> escaping;
  bool VisitStmt(clang::Stmt* user) {
    if (transparent(user)) return true;  // its own user decides
    for (const clang::Stmt* child : user->children()) {
      const auto* used = llvm::dyn_cast_or_null<clang::Expr>(child);
      const clang::DeclRefExpr* use = used ? named_use(used) : nullptr;
      const auto* variable = use ? llvm::dyn_cast<clang::VarDecl>(use->getDecl()) : nullptr;
      if (variable && (use->refersToEnclosingVariableOrCapture() || !reads_or_assigns(user, used)))
        escaping.insert(variable);
    }
    return true;
  }
  bool VisitLambdaExpr(clang::LambdaExpr* lambda) {
    for (const clang::LambdaCapture& capture : lambda->captures())
      if (capture.capturesVariable())
        if (const auto* variable = llvm::dyn_cast<clang::VarDecl>(capture.getCapturedVar())) escaping.insert(variable);
    return true;
  }
};

}  // namespace

std::set<const clang::VarDecl*> escaping_variables(const clang::Stmt* statement) {
  EscapeFinder finder;
  if (statement != nullptr) finder.TraverseStmt(const_cast<clang::Stmt*>(statement));
  return std::move(finder.escaping);
}

ChangedVariables changed_variables(const clang::Stmt* statement) {
  ChangeFinder finder;
  if (statement != nullptr) finder.TraverseStmt(const_cast<clang::Stmt*>(statement));
  return std::move(finder.found);
}

}  // namespace carbide::analysis
