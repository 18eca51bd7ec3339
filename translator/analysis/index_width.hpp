// Where the generated code may compute thread indexes in 32 bits. A kernel asks for it with
// `index_bits = 32` in its contract, and its launch checks that every view and the grid fit; a
// function's witnesses can be made in 32 bits only when no 64-bit kernel reaches it, since one
// text serves every caller. Reports nothing itself.
#pragma once

#include "model/module_model.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>

#include <vector>

namespace carbide::analysis {

// The calls of thread::index_1d(), index_2d() and index_2d_transposed(), in source order, in the
// functions that only kernels with `index_bits = 32` reach. Templates and member functions are
// left out (a template's text serves every instance; a member may be reached through an
// implicit call that reachability does not list), so their witnesses stay 64-bit.
std::vector<const clang::CallExpr*> narrow_witness_sources(clang::ASTContext& context,
                                                           const model::Program& program);

}  // namespace carbide::analysis
