// Splits a device function into barrier phases (the code between two block::sync() calls) and
// lists its shared-memory accesses with the phase each belongs to. A loop that contains a
// barrier joins the phase after its last barrier with the one before its first, as the next
// iteration does; a sync() flagged as divergent still ends a phase.
#pragma once

#include <clang/AST/ExprCXX.h>

#include <vector>

namespace carbide::analysis {

struct SharedAccess {
  const clang::CXXOperatorCallExpr* expr = nullptr;  // tile[i]
  const clang::ValueDecl* tile = nullptr;            // the handle's variable
  const clang::Expr* index = nullptr;
  bool reads = false;
  bool writes = false;
  int phase = 0;
};

struct BarrierPhases {
  std::vector<SharedAccess> accesses;
  std::vector<const clang::CallExpr*> barriers;
};

BarrierPhases find_barrier_phases(const clang::FunctionDecl* function);

}  // namespace carbide::analysis
