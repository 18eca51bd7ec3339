// The second tier of the shared-race check. The first tier (affine forms and intervals) decides
// the common forms cheaply; where it cannot, this one encodes both accesses' indices as
// bit-vectors over two threads' coordinates, under the contract's block, the conditions on the
// path to each access and the shape of the loop counters they use, and asks Z3 (through LLVM's
// SMT API, llvm::CreateZ3Solver) whether two different threads can reach the same slot. XOR
// partners, butterflies (`2t − (t & (s − 1))` and `+ s`), masks, shifts and mixed radix are then
// decided by the solver, not case by case, the way GPUVerify-class verifiers do it.
//
// Sound by construction where it answers "distinct": a variable whose value it cannot encode (a
// load, a call, several thread-dependent definitions) stands for any value, each thread's its
// own; an index it cannot encode otherwise (a call in it) makes it answer "not proven"; and a
// condition it cannot encode is left out, which only allows more collisions. Each query has a
// time budget; running out is "not proven" too.
#pragma once

#include "analysis/barrier_phases.hpp"
#include "analysis/thread_values.hpp"

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace carbide::analysis {

class SlotSolver {
 public:
  // The values of a helper in the same block, for accesses whose index is in the helper's terms
  // (SharedAccess::index_in); null where there are none.
  using HelperValues = std::function<const ThreadValues*(const clang::FunctionDecl*)>;

  explicit SlotSolver(const ThreadValues& values, HelperValues helper_values = {})
      : values_(values), helper_values_(std::move(helper_values)) {}

  // True when the solver shows that no two different threads of a block reach one slot through
  // `a` and `b`. `iteration_variant` holds the symbol keys (symbol_key) of the variables that may
  // differ between the two accesses: those a barrier-free loop around both changes.
  // `last_iteration_of` names, for `a` and for `b`, the loops it runs in the last iteration of
  // when the two meet (loops_ended_between).
  bool proves_distinct(const SharedAccess& a, const SharedAccess& b, const std::set<std::string>& iteration_variant,
                       const std::vector<const clang::Stmt*> (&last_iteration_of)[2]) const;

  // The solver's budget for one query.
  static constexpr unsigned kQueryMilliseconds = 2000;

 private:
  const ThreadValues& values_;
  HelperValues helper_values_;
};

}  // namespace carbide::analysis
