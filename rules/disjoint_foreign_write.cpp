#include "disjoint_foreign_write.hpp"

#include "device_walk.hpp"

#include <clang/AST/ExprCXX.h>

namespace carbide::rules {
namespace {

class Finder : public DeviceCodeFinder<Finder> {
 public:
  using DeviceCodeFinder::DeviceCodeFinder;

  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr* subscript) {
    const clang::Expr* base = subscript->getBase();
    if (!base->IgnoreParenImpCasts()->getType()->isPointerType()) return true;
    // p[0] is *p: the thread's own element.
    if (auto index = subscript->getIdx()->getIntegerConstantExpr(context_.ast); index && *index == 0)
      return true;
    check(subscript, base, "reaches past");
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->isAdditiveOp() || op->getOpcode() == clang::BO_AddAssign ||
        op->getOpcode() == clang::BO_SubAssign) {
      for (const clang::Expr* side : {op->getLHS(), op->getRHS()})
        if (side->getType()->isPointerType()) check(op, side, "moves away from");
    }
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->isIncrementDecrementOp() && op->getSubExpr()->getType()->isPointerType())
      check(op, op->getSubExpr(), "moves away from");
    return true;
  }

 private:
  void check(const clang::Expr* at, const clang::Expr* pointer, const char* verb) {
    const analysis::Provenance origin = context_.device.provenance(pointer);
    if (origin.origin != analysis::PointerOrigin::ViewElement) return;
    const clang::Expr* view = origin.get_mut->getImplicitObjectArgument()->IgnoreParenImpCasts();
    auto result = error(at->getBeginLoc(),
                        "'" + source_text(context_.ast, at) + "' " + verb +
                            " the element that '" + source_text(context_.ast, origin.get_mut) +
                            "' gave this thread; that element belongs to another thread",
                        at->getSourceRange());
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(view))
      result.notes.push_back({ref->getDecl()->getLocation(),
                              "'" + ref->getDecl()->getNameAsString() +
                                  "' is a carbide::disjoint_span: each thread owns exactly one "
                                  "element"});
    context_.reporter.report(std::move(result));
  }
};

}  // namespace

void DisjointForeignWriteRule::check(const RuleContext& context) {
  Finder(context, name()).run();
}

}  // namespace carbide::rules
