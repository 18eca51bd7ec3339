// Which subscripts of fixed-size C arrays in the device code need a bounds check: a thread's
// `float acc[4]`, an array member of a local struct, a row of a 2-D array. A C array has no check
// of its own, and past its end lie the thread's other locals, so an index the translator cannot
// prove inside the array is checked where it runs (carbide::detail::checked_array), as a view's is.
#pragma once

#include "analysis/device_analysis.hpp"

#include <clang/AST/Expr.h>
#include <clang/Basic/SourceLocation.h>

#include <optional>

#include <vector>

namespace carbide::analysis {

// The subscripts `a[i]` of arrays of known extent in the device functions, in source order, whose
// index IndexBounds does not prove inside the extent in every context the subscript's text is
// analysed in (each calling block shape, each instance of a template). The text of a template that
// has no listed instances (a member of a class template, a generic lambda) is never proven.
std::vector<const clang::ArraySubscriptExpr*> unproven_array_subscripts(const DeviceAnalysis& device);

// The text of the subscript's array operand in the user's file, which codegen wraps to check the
// index; empty where there is none to edit: an operand that a macro's body wrote, or an index
// written before the array (`j[acc]`). carbide-unsafe-required reports those.
std::optional<clang::CharSourceRange> checkable_array_operand(const clang::ArraySubscriptExpr* subscript,
                                                              const clang::ASTContext& context);

// The array a subscript indexes, when its extent is known (`int m[3][4]`: m for `m[i]`, and the
// row `m[i]` for `m[i][j]`); null for a pointer.
const clang::ConstantArrayType* indexed_array(const clang::ArraySubscriptExpr* subscript);

}  // namespace carbide::analysis
