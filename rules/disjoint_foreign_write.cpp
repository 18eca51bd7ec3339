#include "disjoint_foreign_write.hpp"

#include "device_walk.hpp"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>

#include <map>

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

// Each ownership form partitions a view its own way: element i, chunk [K·i, K·i + K), an R × C
// tile. Two forms on one view give some element to two threads (thread 1's element is in thread
// 0's chunk of four), so within a function every claim on a view must have the same form.
class MixedForms : public DeviceCodeFinder<MixedForms> {
 public:
  using DeviceCodeFinder::DeviceCodeFinder;

  void run() {
    for (const clang::FunctionDecl* function : context_.device.definitions()) {
      first_claims_.clear();
      TraverseStmt(function->getBody());
    }
  }

  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr* call) {
    const clang::CXXMethodDecl* method = call->getMethodDecl();
    if (!method || !method->getName().starts_with("get_mut") || !is_disjoint_view(method->getParent()))
      return true;
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(call->getImplicitObjectArgument()->IgnoreParenImpCasts());
    if (!ref) return true;
    const auto [first, inserted] = first_claims_.try_emplace(ref->getDecl(), call);
    if (inserted || form_of(first->second) == form_of(call)) return true;
    const std::string view = ref->getDecl()->getNameAsString();
    auto result = error(call->getBeginLoc(),
                        "'" + source_text(context_.ast, call) + "' claims '" + view + "' as " + form_of(call) +
                            " after '" + source_text(context_.ast, first->second) + "' claimed it as " +
                            form_of(first->second) +
                            "; the two forms give some elements to two threads. Claim every piece "
                            "of '" + view + "' in this function the same way",
                        call->getSourceRange());
    result.notes.push_back({first->second->getBeginLoc(), "the other form"});
    context_.reporter.report(std::move(result));
    return true;
  }

 private:
  static bool is_disjoint_view(const clang::CXXRecordDecl* record) {
    return record->getName() == "disjoint_span" || record->getName() == "disjoint_span2d";
  }
  // `get_mut_chunk<4>`: the method and its template arguments, which fix the partition.
  std::string form_of(const clang::CXXMemberCallExpr* call) const {
    const clang::CXXMethodDecl* method = call->getMethodDecl();
    std::string form = method->getNameAsString();
    if (const clang::TemplateArgumentList* arguments = method->getTemplateSpecializationArgs()) {
      llvm::raw_string_ostream out(form);
      clang::printTemplateArgumentList(out, arguments->asArray(), context_.ast.getPrintingPolicy());
    }
    return "'" + form + "'";
  }

  std::map<const clang::ValueDecl*, const clang::CXXMemberCallExpr*> first_claims_;
};

}  // namespace

void DisjointForeignWriteRule::check(const RuleContext& context) {
  Finder(context, name()).run();
  MixedForms(context, name()).run();
}

}  // namespace carbide::rules
