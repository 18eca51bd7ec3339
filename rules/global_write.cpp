#include "global_write.hpp"

#include "device_walk.hpp"
#include "model/annotations.hpp"
#include "model/module_api.hpp"

#include <clang/AST/ExprCXX.h>

namespace carbide::rules {
namespace {

// The variable an lvalue names, through members and array elements: `g.count[i]` -> g.
const clang::VarDecl* written_variable(const clang::Expr* target) {
  while (true) {
    target = target->IgnoreParenImpCasts();
    if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(target)) {
      if (member->isArrow()) return nullptr;
      target = member->getBase();
    } else if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(target)) {
      if (!subscript->getBase()->IgnoreParenImpCasts()->getType()->isArrayType()) return nullptr;
      target = subscript->getBase();
    } else {
      break;
    }
  }
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(target);
  return ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

class Finder : public DeviceCodeFinder<Finder> {
 public:
  using DeviceCodeFinder::DeviceCodeFinder;

  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->isAssignmentOp()) check(op, op->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->isIncrementDecrementOp()) check(op, op->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr* call) {
    if (call->isAssignmentOp() || call->getOperator() == clang::OO_PlusPlus ||
        call->getOperator() == clang::OO_MinusMinus)
      check(call, call->getArg(0));
    return true;
  }

 private:
  void check(const clang::Expr* write, const clang::Expr* target) {
    const clang::VarDecl* var = written_variable(target);
    if (var == nullptr || !var->hasGlobalStorage()) return;
    const std::string name = var->getNameAsString();
    auto result = error(write->getBeginLoc(), message(*var, name), write->getSourceRange());
    result.notes.push_back({var->getLocation(), "'" + name + "' declared here"});
    context_.reporter.report(std::move(result));
  }

  static std::string message(const clang::VarDecl& var, const std::string& name) {
    if (model::is_constant_table(&var))
      return "device code writes the constant table '" + name + "', which kernels only read; set it from host "
             "code with module." + model::constant_setter_name(name) + "(stream, values) before the launch";
    const char* kind = var.isStaticLocal()         ? "static local"
                       : var.isStaticDataMember() ? "static member"
                                                  : "namespace-scope variable";
    return "device code writes " + std::string(kind) + " '" + name +
           "', which every thread of every block shares; write results through a carbide::disjoint_span or "
           "carbide::atomic_span parameter";
  }
};

}  // namespace

void GlobalWriteRule::check(const RuleContext& context) {
  Finder(context, name()).run();
}

}  // namespace carbide::rules
