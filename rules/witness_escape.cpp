#include "witness_escape.hpp"

#include "device_walk.hpp"

#include <clang/AST/ExprCXX.h>

namespace carbide::rules {
namespace {

class Finder : public DeviceCodeFinder<Finder> {
 public:
  using DeviceCodeFinder::DeviceCodeFinder;

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
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee && callee->isInStdNamespace() && callee->getName() == "move" &&
        call->getNumArgs() == 1 && analysis::is_witness_type(call->getArg(0)->getType()))
      report(call->getBeginLoc(), "witness '" + source_text(context_.ast, call->getArg(0)) +
                                      "' is moved; a witness stays with the thread that made it");
    return true;
  }
};

}  // namespace

void WitnessEscapeRule::check(const RuleContext& context) {
  Finder(context, name()).run();
}

}  // namespace carbide::rules
