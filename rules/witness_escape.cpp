#include "witness_escape.hpp"

#include "device_walk.hpp"

#include "model/call_arguments.hpp"
#include "model/user_code.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMap.h>

#include <memory>

namespace carbide::rules {
namespace {

// A witness is proof of one thread's index, so it may go only where the checker sees every use
// of it: to the vocabulary, and to the user's own helpers that take it by `const&` (whose bodies
// are checked in turn). Every other use of a witness is reported, whatever spells it: an address
// (`&idx`, `std::addressof`), a cast or a copy of its bytes, a library call (`std::cref`), an
// object that keeps it. The forms that have messages of their own (a capture by reference, a
// return, `&`, an aggregate member, std::move) are reported by those.
class Finder : public DeviceCodeFinder<Finder> {
 public:
  using DeviceCodeFinder::DeviceCodeFinder;

  void run() {
    for (const clang::FunctionDecl* function : context_.device.definitions()) {
      parents_ = std::make_unique<clang::ParentMap>(function->getBody());
      TraverseStmt(function->getBody());
      if (const auto* constructor = llvm::dyn_cast<clang::CXXConstructorDecl>(function))
        check_member_initializers(constructor);
    }
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    if (analysis::is_witness_type(ref->getType()) && !ref->getType()->isPointerType()) check_use(ref);
    return true;
  }
  bool VisitMemberExpr(clang::MemberExpr* member) {
    if (analysis::is_witness_type(member->getType()) && !member->getType()->isPointerType()) check_use(member);
    return true;
  }

  bool VisitLambdaExpr(clang::LambdaExpr* lambda) {
    for (const clang::LambdaCapture& capture : lambda->captures()) {
      if (!capture.capturesVariable() || capture.getCaptureKind() != clang::LCK_ByRef) continue;
      const clang::ValueDecl* var = capture.getCapturedVar();
      if (!analysis::is_witness_type(var->getType())) continue;
      report(capture.getLocation(),
             "witness '" + var->getNameAsString() +
                 "' is captured by reference; a lambda can outlive the statement or run on "
                 "another thread's data. Pass the witness to the lambda as a 'const&' parameter");
    }
    return true;
  }
  bool VisitReturnStmt(clang::ReturnStmt* statement) {
    if (statement->getRetValue() && analysis::is_witness_type(statement->getRetValue()->getType()))
      report(statement->getBeginLoc(),
             "a thread-index witness is returned; witnesses are made by carbide::thread:: and "
             "passed down by 'const&', never handed back");
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->getOpcode() == clang::UO_AddrOf &&
        analysis::is_witness_type(op->getSubExpr()->getType()))
      report(op->getBeginLoc(), "the address of witness '" + source_text(context_.ast, op->getSubExpr()) +
                                    "' is taken; a stored pointer lets the index outlive its "
                                    "thread's control. Pass the witness by 'const&'");
    return true;
  }
  // Visited once, in the form written: the semantic form (where each element meets its member,
  // references included) is what is checked.
  bool VisitInitListExpr(clang::InitListExpr* list) {
    const clang::InitListExpr* semantic = list->getSemanticForm() ? list->getSemanticForm() : list;
    if (semantic->getType()->isRecordType()) report_stored(semantic->inits());
    return true;
  }
  bool VisitCXXParenListInitExpr(clang::CXXParenListInitExpr* list) {  // C++20 `Cursor c(idx, n)`
    if (list->getType()->isRecordType()) report_stored(list->getInitExprs());
    return true;
  }
  template <class Elements>
  void report_stored(const Elements& elements) {
    // A pointer element was reported where its address was taken.
    for (const clang::Expr* element : elements)
      if (element && !element->getType()->isPointerType() && analysis::is_witness_type(element->getType()))
        report(element->getBeginLoc(),
               "witness '" + source_text(context_.ast, element) +
                   "' is stored in an object; keep witnesses in local variables and pass them "
                   "by 'const&'");
  }
  bool VisitCallExpr(clang::CallExpr* call) {
    if (is_move_of_witness(call))
      report(call->getBeginLoc(), "witness '" + source_text(context_.ast, call->getArg(0)) +
                                      "' is moved; a witness stays with the thread that made it");
    return true;
  }

 private:
  static bool is_move_of_witness(const clang::CallExpr* call) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    return callee && callee->isInStdNamespace() && callee->getName() == "move" && call->getNumArgs() == 1 &&
           analysis::is_witness_type(call->getArg(0)->getType());
  }

  // The expression `use` is a part of, past parentheses and conversions that keep it the same
  // object.
  const clang::Stmt* context_of(const clang::Expr* use, const clang::Expr*& as_part) const {
    const clang::Stmt* child = use;
    const clang::Stmt* parent = parents_->getParent(child);
    while (parent != nullptr) {
      const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(parent);
      const bool same = llvm::isa<clang::ParenExpr, clang::MaterializeTemporaryExpr, clang::ExprWithCleanups,
                                  clang::CXXBindTemporaryExpr>(parent) ||
                        (cast && (cast->getCastKind() == clang::CK_NoOp || cast->getCastKind() == clang::CK_UncheckedDerivedToBase ||
                                  cast->getCastKind() == clang::CK_DerivedToBase));
      if (!same) break;
      child = parent;
      parent = parents_->getParent(child);
    }
    as_part = llvm::dyn_cast<clang::Expr>(child);
    return parent;
  }

  // A parameter a witness may be handed to: a `const&` of its type, in a function whose body
  // the checker reads (the vocabulary's own, or the user's).
  bool takes_by_const_reference(const clang::FunctionDecl* callee, unsigned argument) const {
    if (callee == nullptr) return false;
    if (model::vocabulary::is_carbide(callee) && !callee->isInStdNamespace()) return true;
    if (!model::in_user_code(context_.ast.getSourceManager(), callee) || !callee->hasBody()) return false;
    if (argument >= callee->getNumParams()) return false;
    const clang::QualType type = callee->getParamDecl(argument)->getType();
    return type->isLValueReferenceType() && type.getNonReferenceType().isConstQualified();
  }

  // Where the witness `use` goes, when that is not one of the places it may go: "" when it may.
  std::string forbidden_place(const clang::Expr* use) const {
    const clang::Expr* part = nullptr;
    const clang::Stmt* parent = context_of(use, part);
    if (parent == nullptr) return "";
    // Reported by the forms with messages of their own.
    if (llvm::isa<clang::ReturnStmt, clang::InitListExpr, clang::CXXParenListInitExpr, clang::LambdaExpr>(parent))
      return "";
    if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(parent); op && op->getOpcode() == clang::UO_AddrOf)
      return "";
    // `idx.get()`: a read of the index.
    if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(parent))
      return model::vocabulary::is_carbide(member->getMemberDecl()) ? "" : "is used through a member that is not Carbide's";
    // sizeof, decltype and friends read no value.
    if (llvm::isa<clang::UnaryExprOrTypeTraitExpr>(parent)) return "";
    // A local alias: `const auto& w = idx;` (its uses are checked in turn).
    if (const auto* declaration = llvm::dyn_cast<clang::DeclStmt>(parent)) {
      for (const clang::Decl* decl : declaration->decls())
        if (const auto* var = llvm::dyn_cast<clang::VarDecl>(decl);
            var && var->getInit() && var->getInit()->IgnoreImplicit() == part->IgnoreImplicit() &&
            var->getType()->isLValueReferenceType() && var->getType().getNonReferenceType().isConstQualified())
          return "";
      return "initializes a variable that is not a 'const&' alias";
    }
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(parent)) {
      if (is_move_of_witness(call)) return "";
      const clang::FunctionDecl* callee = call->getDirectCallee();
      const unsigned shift = model::object_arguments(call, callee);
      for (unsigned i = 0; i < call->getNumArgs(); ++i)
        if (call->getArg(i)->IgnoreParenImpCasts() == part->IgnoreParenImpCasts()) {
          if (shift == 1 && i == 0) return model::vocabulary::is_carbide(callee) ? "" : "is the operand of an operator that is not Carbide's";
          if (takes_by_const_reference(callee, i - shift)) return "";
          return callee ? "is passed to '" + callee->getQualifiedNameAsString() +
                              "', which is neither Carbide's nor a helper of yours that takes it by 'const&'"
                        : "is passed to a call the checker cannot resolve";
        }
      return "is used in a call";
    }
    if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(parent)) {
      for (unsigned i = 0; i < construct->getNumArgs(); ++i)
        if (construct->getArg(i)->IgnoreParenImpCasts() == part->IgnoreParenImpCasts())
          return takes_by_const_reference(construct->getConstructor(), i)
                     ? ""
                     : "is passed to the constructor of '" + construct->getType().getAsString() +
                           "', which does not take it by 'const&'";
    }
    if (const auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(parent))
      // `(void)idx;` discards the value: nothing can read or rewrite it through that.
      return cast->getTypeAsWritten()->isVoidType() ? "" : "is cast, which lets its bytes be read or rewritten";
    if (llvm::isa<clang::CXXForRangeStmt>(parent)) return "";
    return "is used in an expression the checker does not follow";
  }

  void check_use(const clang::Expr* use) {
    const std::string place = forbidden_place(use);
    if (place.empty()) return;
    report(use->getBeginLoc(),
           "witness '" + source_text(context_.ast, use) + "' " + place +
               "; the checker cannot follow it there. Pass a witness only to Carbide's views and to "
               "your own helpers that take it by 'const&'");
  }

  // `Holder(const W& w) : w_(w) {}` keeps the witness in the object.
  void check_member_initializers(const clang::CXXConstructorDecl* constructor) {
    for (const clang::CXXCtorInitializer* init : constructor->inits()) {
      const clang::FieldDecl* field = init->getMember();
      if (field == nullptr || !init->isWritten() || !analysis::is_witness_type(field->getType())) continue;
      report(init->getSourceLocation(),
             "witness is stored in member '" + field->getNameAsString() +
                 "' of an object; keep witnesses in local variables and pass them by 'const&'");
    }
  }

  std::unique_ptr<clang::ParentMap> parents_;
};

}  // namespace

void WitnessEscapeRule::check(const RuleContext& context) {
  Finder(context, name()).run();
}

}  // namespace carbide::rules
