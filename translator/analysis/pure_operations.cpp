#include "analysis/pure_operations.hpp"

#include "model/vocabulary.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <set>

namespace carbide::analysis {
namespace {

// As deep as the helper analyses follow calls (carbide-device-unsupported refuses deeper chains).
constexpr int kMaxCallDepth = 9;

bool arithmetic_by_value(clang::QualType type) {
  return !type->isReferenceType() && type->isArithmeticType();
}

// A function of the standard headers that takes arithmetic values and returns one: the math
// library. Those with no parameter (rand, clock) read state of their own.
bool math_function(const clang::FunctionDecl* function) {
  if (function->isVariadic() || function->getNumParams() == 0 || !arithmetic_by_value(function->getReturnType()))
    return false;
  for (const clang::ParmVarDecl* parameter : function->parameters())
    if (!arithmetic_by_value(parameter->getType())) return false;
  return true;
}

class PurityWalk : public clang::RecursiveASTVisitor<PurityWalk> {
 public:
  explicit PurityWalk(const clang::ASTContext& context) : context_(context) {}

  bool shouldVisitImplicitCode() const { return true; }
  bool shouldVisitTemplateInstantiations() const { return true; }
  // Inner calls first, so that a reason names `thread::lane()` rather than the `.get()` on it.
  bool shouldTraversePostOrder() const { return true; }

  std::optional<std::string> reason;

  void function(const clang::FunctionDecl* function, int depth) {
    const clang::FunctionDecl* definition = nullptr;
    if (!function->hasBody(definition)) {
      refuse("calls '" + function->getQualifiedNameAsString() + "', whose body is not visible");
      return;
    }
    if (!visited_.insert(definition).second) return;
    if (depth > kMaxCallDepth) {
      refuse("calls functions more than " + std::to_string(kMaxCallDepth) + " levels deep");
      return;
    }
    const int outer = std::exchange(depth_, depth);
    const clang::FunctionDecl* caller = std::exchange(current_, definition);
    if (const auto* constructor = llvm::dyn_cast<clang::CXXConstructorDecl>(definition))
      for (const clang::CXXCtorInitializer* init : constructor->inits()) TraverseStmt(init->getInit());
    TraverseStmt(definition->getBody());
    current_ = caller;
    depth_ = outer;
  }

  bool VisitCallExpr(clang::CallExpr* call) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr) {
      if (!call->isTypeDependent()) refuse("calls through a pointer");
      return !reason;
    }
    called(callee);
    return !reason;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr* construct) {
    const clang::CXXConstructorDecl* constructor = construct->getConstructor();
    if (!constructor->isTrivial()) called(constructor);
    return !reason;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var == nullptr) return true;
    // Its own parameters and locals; elsewhere only constants.
    if (var->isLocalVarDeclOrParm() && !var->isStaticLocal()) return true;
    if (var->getType().isConstQualified() || var->isConstexpr()) return true;
    refuse("reads '" + var->getQualifiedNameAsString() + "', which is not a constant");
    return !reason;
  }
  bool VisitCXXThisExpr(clang::CXXThisExpr*) {
    // A lambda without captures has no object; a member function's `this` is state of its own.
    if (!(current_ && llvm::isa<clang::CXXMethodDecl>(current_) &&
          llvm::cast<clang::CXXMethodDecl>(current_)->getParent()->isLambda()))
      refuse("reads the members of an object");
    return !reason;
  }
  bool VisitAsmStmt(clang::AsmStmt*) {
    refuse("holds inline assembly");
    return !reason;
  }

 private:
  void called(const clang::FunctionDecl* callee) {
    const std::string name = callee->getQualifiedNameAsString();
    if (const unsigned builtin = callee->getBuiltinID()) {
      if (!context_.BuiltinInfo.isConst(builtin) && !math_function(callee)) refuse("calls '" + name + "'");
      return;
    }
    if (model::vocabulary::is_carbide(callee)) {
      // carbide::vec's members read and write the value they are called on, a parameter or a local.
      if (const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(callee);
          method && model::vocabulary::is_vec(method->getParent()))
        return;
      const auto* entry = model::vocabulary::device_function(callee);
      if (entry == nullptr || entry->role != model::vocabulary::Role::Intrinsic)
        refuse("calls '" + name + "', which is not one of CUDA's intrinsics");
      return;
    }
    const clang::SourceManager& sources = context_.getSourceManager();
    if (sources.isInSystemHeader(sources.getExpansionLoc(callee->getCanonicalDecl()->getLocation()))) {
      if (!math_function(callee))
        refuse("calls '" + name + "', which is not a math function of arithmetic values");
      return;
    }
    function(callee, depth_ + 1);
  }
  void refuse(std::string why) {
    if (!reason) reason = std::move(why);
  }

  const clang::ASTContext& context_;
  std::set<const clang::FunctionDecl*> visited_;
  const clang::FunctionDecl* current_ = nullptr;
  int depth_ = 0;
};

}  // namespace

std::optional<std::string> impure_operation_reason(const clang::Expr* operation, const clang::ASTContext& context) {
  const clang::CXXRecordDecl* closure = operation->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (closure == nullptr || !closure->isLambda())
    return std::string("is not a lambda");
  if (closure->capture_size() != 0) return std::string("captures variables, whose values differ between lanes");
  PurityWalk walk(context);
  const clang::CXXMethodDecl* call_operator = closure->getLambdaCallOperator();
  if (const clang::FunctionTemplateDecl* generic = call_operator->getDescribedFunctionTemplate()) {
    for (const clang::FunctionDecl* instance : generic->specializations()) {
      walk.function(instance, 0);
      if (walk.reason) break;
    }
  } else {
    walk.function(call_operator, 0);
  }
  return walk.reason;
}

}  // namespace carbide::analysis
