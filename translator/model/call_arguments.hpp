// How a call's arguments line up with its callee's parameters.
#pragma once

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>

namespace carbide::model {

// How many of `call`'s leading arguments are the object it is called on rather than arguments
// for the callee's parameters: a member operator's (`a[i]`, `a = b`) comes first among its
// arguments, so argument i + object_arguments() binds to parameter i.
inline unsigned object_arguments(const clang::CallExpr* call, const clang::FunctionDecl* callee) {
  return llvm::isa<clang::CXXOperatorCallExpr>(call) && llvm::isa_and_nonnull<clang::CXXMethodDecl>(callee) ? 1 : 0;
}

}  // namespace carbide::model
