#include "analysis/changed_variables.hpp"

#include "model/vocabulary.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMap.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <vector>

namespace carbide::analysis {

const clang::VarDecl* stored_variable(const clang::Expr* expr) {
  for (;;) {
    expr = expr->IgnoreParenImpCasts();
    if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr);
        member && !member->isArrow() && llvm::isa<clang::FieldDecl>(member->getMemberDecl())) {
      expr = member->getBase();
      continue;
    }
    if (const auto* element = llvm::dyn_cast<clang::ArraySubscriptExpr>(expr);
        element && element->getBase()->IgnoreParenImpCasts()->getType()->isArrayType()) {
      expr = element->getBase();
      continue;
    }
    break;
  }
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr);
  return ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

namespace {

struct ChangeFinder : clang::RecursiveASTVisitor<ChangeFinder> {
  ChangedVariables found;
  void note(std::set<const clang::VarDecl*>& into, const clang::Expr* expr) {
    if (const clang::VarDecl* variable = stored_variable(expr)) into.insert(variable);
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

bool carbide_const_method(const clang::Decl* decl) {
  const auto* method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(decl);
  return method && method->isConst() && model::vocabulary::is_carbide(method);
}

// A call of a lambda that is not `mutable` leaves the closure as it was (what it captured by
// reference is another matter: see EscapeFinder).
bool calls_lambda(const clang::CXXOperatorCallExpr* call) {
  const auto* method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(call->getDirectCallee());
  return method && method->isConst() && method->getParent()->isLambda();
}

// Whether `user` reads or assigns the value its operand `used` is: reads it, assigns or steps it
// by name, calls a const member function of Carbide's on it (a view's size(), operator[]),
// copies it or passes it by value, or binds it to a const reference parameter of Carbide's own
// functions. Const references elsewhere could be cast back to mutable ones.
bool reads_or_assigns(const clang::Stmt* user, const clang::Expr* used) {
  if (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(user)) return cast->getCastKind() == clang::CK_LValueToRValue;
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(user)) return op->isAssignmentOp() && op->getLHS() == used;
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(user)) return op->isIncrementDecrementOp();
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(user)) return carbide_const_method(member->getMemberDecl());
  if (const auto* call = llvm::dyn_cast<clang::CXXOperatorCallExpr>(user); call && call->getNumArgs() > 0 && call->getArg(0) == used)
    return call->isAssignmentOp() || carbide_const_method(call->getDirectCallee()) || calls_lambda(call);
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
  // A copy of a trivially copyable record (`Params q = p;`, `q = p`) reads it, member by member.
  if (const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(callee); method && method->isTrivial())
    return true;
  for (unsigned i = 0; i < arguments.size(); ++i)
    if (arguments[i] == used) {
      if (i >= callee->getNumParams()) return false;
      const clang::QualType type = callee->getParamDecl(i)->getType();
      return !type->isReferenceType() ||
             (type.getNonReferenceType().isConstQualified() && model::vocabulary::is_carbide(callee));
    }
  return false;
}

// Is `child` the storage of `parent` seen as a whole: parentheses, an added const, a member of it
// (`p.n`), an element of it (`offsets[k]`, through the array's decay)?
bool part_of(const clang::Stmt* parent, const clang::Stmt* child) {
  if (transparent(parent)) return true;
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(parent))
    return member->getBase() == child && !member->isArrow() && llvm::isa<clang::FieldDecl>(member->getMemberDecl());
  if (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(parent); cast && cast->getCastKind() == clang::CK_ArrayToPointerDecay)
    return true;  // what uses the decayed pointer decides (an element read, or an escape)
  if (const auto* element = llvm::dyn_cast<clang::ArraySubscriptExpr>(parent)) {
    const auto* decayed = llvm::dyn_cast<clang::ImplicitCastExpr>(element->getBase());
    return decayed == child && decayed->getCastKind() == clang::CK_ArrayToPointerDecay;
  }
  return false;
}

// Each use of a variable is classified at the expression that uses its storage as a whole: a
// read of `p.n` reads p, `p.n = x` assigns it, `&p.n` lets it change anywhere. A lambda that
// captures a variable by reference and writes it (or lets it escape) changes it where it is
// called, which no assignment in the function names; a capture by copy is a read.
struct EscapeFinder : clang::RecursiveASTVisitor<EscapeFinder> {
  explicit EscapeFinder(const clang::Stmt* body) : parents(const_cast<clang::Stmt*>(body)) {}
  clang::ParentMap parents;
  std::set<const clang::VarDecl*> escaping;
  std::vector<const clang::LambdaExpr*> lambdas;

  bool TraverseLambdaExpr(clang::LambdaExpr* lambda) {
    lambdas.push_back(lambda);
    const bool result = RecursiveASTVisitor::TraverseLambdaExpr(lambda);
    lambdas.pop_back();
    return result;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr* use) {
    const auto* variable = llvm::dyn_cast<clang::VarDecl>(use->getDecl());
    if (variable == nullptr) return true;
    const clang::Stmt* used = use;
    const clang::Stmt* user = parents.getParent(used);
    while (user != nullptr && part_of(user, used)) {
      used = user;
      user = parents.getParent(used);
    }
    // A capture's own initializer in the lambda expression, or a statement on its own: a read.
    if (user == nullptr || llvm::isa<clang::LambdaExpr>(user)) return true;
    const bool read_or_assigned = reads_or_assigns(user, llvm::cast<clang::Expr>(used));
    if (!read_or_assigned) {
      escaping.insert(variable);
    } else if (use->refersToEnclosingVariableOrCapture() && captured_by_reference(variable) &&
               !is_read(user)) {
      escaping.insert(variable);  // written inside a lambda, through its reference capture
    }
    return true;
  }

 private:
  static bool is_read(const clang::Stmt* user) {
    const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(user);
    return cast && cast->getCastKind() == clang::CK_LValueToRValue;
  }
  bool captured_by_reference(const clang::VarDecl* variable) const {
    for (auto it = lambdas.rbegin(); it != lambdas.rend(); ++it)
      for (const clang::LambdaCapture& capture : (*it)->captures())
        if (capture.capturesVariable() && capture.getCapturedVar() == variable)
          return capture.getCaptureKind() == clang::LCK_ByRef;
    return false;
  }
};

}  // namespace

std::set<const clang::VarDecl*> escaping_variables(const clang::Stmt* statement) {
  if (statement == nullptr) return {};
  EscapeFinder finder(statement);
  if (statement != nullptr) finder.TraverseStmt(const_cast<clang::Stmt*>(statement));
  return std::move(finder.escaping);
}

ChangedVariables changed_variables(const clang::Stmt* statement) {
  ChangeFinder finder;
  if (statement != nullptr) finder.TraverseStmt(const_cast<clang::Stmt*>(statement));
  return std::move(finder.found);
}

}  // namespace carbide::analysis
