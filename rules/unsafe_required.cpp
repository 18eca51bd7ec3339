#include "unsafe_required.hpp"

#include "analysis/array_indexes.hpp"
#include "device_walk.hpp"
#include "model/user_code.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/ExprCXX.h>

namespace carbide::rules {
namespace {

constexpr const char* kWrap =
    "wrap it in CARBIDE_UNSAFE(\"why this is sound\") { ... } or reach the memory through a view";

class Finder : public DeviceCodeFinder<Finder> {
 public:
  using DeviceCodeFinder::DeviceCodeFinder;

  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->getOpcode() == clang::UO_Deref) check_pointer(op, op->getSubExpr(), "dereference of");
    return true;
  }
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr* subscript) {
    if (subscript->getBase()->IgnoreParenImpCasts()->getType()->isPointerType())
      check_pointer(subscript, subscript->getBase(), "indexing through");
    else
      check_array_index(subscript);
    return true;
  }
  bool VisitMemberExpr(clang::MemberExpr* member) {
    if (member->isArrow() && !llvm::isa<clang::CXXThisExpr>(member->getBase()->IgnoreParenImpCasts()))
      check_pointer(member, member->getBase(), "member access through");
    return true;
  }
  bool VisitGCCAsmStmt(clang::GCCAsmStmt* statement) {
    report(statement, "inline asm is unchecked: nothing proves what it reads or writes; " +
                          std::string(kWrap));
    return true;
  }
  // carbide::detail is the generated code's vocabulary: detail::in_range(i), for one, skips a
  // shared array's bounds check on the translator's proof, which user code does not have.
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    const clang::ValueDecl* decl = ref->getDecl();
    if (model::vocabulary::is_internal(decl))
      report(ref, "'" + decl->getQualifiedNameAsString() +
                      "' is internal to Carbide and may skip its checks; use the public "
                      "vocabulary, or " + kWrap);
    return true;
  }
  // Library code is not checked: memcpy onto a view's element writes its neighbour's too. A
  // pointer into memory that is not the thread's own locals goes only to functions whose bodies
  // the checker reads.
  bool VisitCallExpr(clang::CallExpr* call) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr || model::vocabulary::is_carbide(callee) ||
        (model::in_user_code(context_.ast.getSourceManager(), callee) && callee->hasBody()))
      return true;
    for (const clang::Expr* arg : call->arguments()) {
      if (!arg->getType()->isPointerType() ||
          context_.device.provenance(arg).origin == analysis::PointerOrigin::Local)
        continue;
      report(arg, "'" + callee->getQualifiedNameAsString() + "' is given raw pointer '" +
                      source_text(context_.ast, arg) +
                      "', and library code is not checked: it may reach past the element or the view. "
                      "Copy element by element through the view, or " + kWrap);
    }
    return true;
  }
  bool VisitCXXConstCastExpr(clang::CXXConstCastExpr* cast) {
    report(cast, "const_cast can make read-only memory writable; " + std::string(kWrap));
    return true;
  }

 private:
  void check_pointer(const clang::Stmt* at, const clang::Expr* pointer, const char* what) {
    // A view element's own pointer has its own rule (carbide-disjoint-foreign-write).
    if (context_.device.provenance(pointer).origin != analysis::PointerOrigin::Unknown) return;
    report(at, std::string(what) + " raw pointer '" + source_text(context_.ast, pointer) +
                   "', whose target the checker cannot tell; " + kWrap + vector_access_advice(pointer));
  }
  // CUDA's `reinterpret_cast<const float4*>(x)[i]` reads four floats in one access. Carbide has
  // that access without the cast: a view of the vector type, or a view's chunk forms.
  static std::string vector_access_advice(const clang::Expr* pointer) {
    if (!llvm::isa<clang::CXXReinterpretCastExpr, clang::CStyleCastExpr>(pointer->IgnoreParens())) return "";
    return ". For one vector access of several elements, take the buffer as a view of CUDA's "
           "vector type (carbide::span<const float4>, from a DeviceBuffer<float4>), or read "
           "x.chunk<4>(i) and write out.get_mut_chunk<4>(idx)";
  }
  // Generated code checks a C array's index by wrapping the array (analysis/array_indexes); an
  // array it cannot wrap needs an index that is plainly inside it.
  void check_array_index(const clang::ArraySubscriptExpr* subscript) {
    const clang::ConstantArrayType* array = analysis::indexed_array(subscript);
    if (array == nullptr || subscript->isValueDependent() ||
        analysis::checkable_array_operand(subscript, context_.ast))
      return;
    const std::uint64_t extent = array->getSize().getZExtValue();
    if (const auto index = subscript->getIdx()->getIntegerConstantExpr(context_.ast);
        index && !index->isNegative() && index->getZExtValue() < extent)
      return;
    report(subscript, "the index of '" + source_text(context_.ast, subscript) +
                          "' cannot be checked: the array is not written before its index in this file (a macro's "
                          "body, or `i[a]`), and the checker cannot prove the index inside its " +
                          std::to_string(extent) + " elements; write `a[i]` in the file, or " + kWrap);
  }
  void report(const clang::Stmt* at, std::string message) {
    if (context_.device.in_unsafe_block(at)) return;
    DeviceCodeFinder::report(at->getBeginLoc(), std::move(message), at->getSourceRange());
  }
};

}  // namespace

void UnsafeRequiredRule::check(const RuleContext& context) {
  Finder(context, name()).run();
}

}  // namespace carbide::rules
