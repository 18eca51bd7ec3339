// Which reads of a read-only view need no bounds check: `x[i]` where every way into it has just
// tested `i < x.size()`, with neither `i` nor `x` changed since, and `x[idx.get()]` in a kernel
// whose launch makes the grid's thread count x's size. Found syntactically, so the proof is easy
// to follow and conservative: anything it does not recognise keeps its check.
#pragma once

#include "model/module_model.hpp"

#include <clang/AST/ExprCXX.h>

#include <vector>

namespace carbide::analysis {

// `x[i]` on a `span<const T>` in the device functions, in source order, that lies
//  - in the branch, body or operand that a condition `i < x.size()` (or `x.size() > i`, or one
//    conjunct of an `&&` chain) guards: an if's then-branch, a for or while loop's body, a ?:'s
//    true arm, an &&'s right operand; or in the body of `for (auto w : thread::grid_stride(x))`,
//    read as `x[w.get()]`;
//  - where `i` is a witness read (`w.get()`), or a local integer variable that neither the
//    condition nor the guarded statement assigns and whose address the function never gives
//    away, compared in the type the subscript converts it to;
//  - and `x` is a view the function never assigns or lets change;
// or that reads `x[idx.get()]` in a kernel whose contract says `covers = x` (the launch checks
// grid.x × block.x == x.size()), with `idx` a local made by `thread::index_1d()` and `x` unchanged.
// Functions with goto or labels, guarded statements with case labels (a jump could enter them
// past the test), lambdas and templates (one text serves every instance) are left out.
std::vector<const clang::CXXOperatorCallExpr*> proven_span_reads(const model::Program& program);

}  // namespace carbide::analysis
