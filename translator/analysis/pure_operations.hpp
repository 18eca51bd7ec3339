// Whether an operation handed to a warp collective (`warp::reduce(v, op)`) computes its result
// from its arguments alone. The collective calls it inside Carbide's header, where the analyses
// do not follow it, and every lane folds the same values in the same order, so its result is the
// same across the warp only when the operation reads nothing else and changes nothing: no
// captures, no thread coordinate, no memory, no state of its own.
//
// Allowed: a lambda without captures whose body (each instance of a generic one) uses its
// parameters, its own locals and constants, and calls only CUDA's intrinsics, functions of the
// standard headers that take and return arithmetic values (fmaxf, expf), Clang's builtins without
// side effects, and functions of the program that are allowed the same way. Anything else is
// refused with the reason, never assumed harmless.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>

#include <optional>
#include <string>

namespace carbide::analysis {

// Why `operation` may compute something other than a function of its arguments; nothing when it
// cannot. The reason names the expression or declaration at fault, to follow "the operation ".
std::optional<std::string> impure_operation_reason(const clang::Expr* operation, const clang::ASTContext& context);

}  // namespace carbide::analysis
