// A device function's shared-memory accesses and which of them may run at once, read off its
// clang::CFG (BarrierFlow).
//
// Every thread of a block passes the same barriers in the same order (carbide-divergent-barrier
// holds that), so two threads at two accesses are between the same two barriers when, from the
// last barrier both passed, their paths share a prefix and then either one path goes on to the
// other's access, or the two part at a branch whose test differs between threads. A branch
// whose test is the same for the whole block sends every thread the same way, so paths that part
// there never meet. Hence two accesses may run at once when one reaches the other on a path
// without a barrier, or when a thread-dependent branch reaches both that way. Nothing here is a
// statement kind: switch, goto, break, continue, ?:, && and || are edges of the CFG like any
// other.
#pragma once

#include "analysis/barrier_flow.hpp"

#include <clang/AST/ExprCXX.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace carbide::analysis {

class ThreadValues;

struct SharedAccess {
  const clang::CallExpr* expr = nullptr;   // tile[i], or tile.fetch_add(i, v); for an access in a
                                           // helper, the call in this function that reaches it
  const clang::ValueDecl* tile = nullptr;  // the handle's variable; null for dynamic shared memory
  const clang::Expr* index = nullptr;
  // Where `index` is a helper's own expression (not one of its parameters), that helper: the
  // index is in its terms, not this function's.
  const clang::FunctionDecl* index_in = nullptr;
  bool reads = false;
  bool writes = false;
  bool atomic = false;  // fetch_add: atomic against other atomics on any slot
  bool aliased = false;  // its address or a mutable reference leaves the expression (AccessUse)
  // A helper's access to an array its caller passed: `tile[i]` in the helper. The helper is
  // analysed as if inlined at each call, the helper's parameters standing for the arguments.
  const clang::CallExpr* in_helper = nullptr;
  // In a helper without barriers, an access to an array passed in: its callers check it.
  bool checked_in_callers = false;
  // For an access of a helper with barriers placed at its call: the helper's first or last
  // phase, or both (BoundaryPhase bits); 0 for any other access.
  unsigned boundary = 0;
  // Where `expr` is evaluated (BarrierFlow nodes); none when the CFG has no place for it, and
  // then it may run at once with anything.
  std::vector<unsigned> nodes;
};

class BarrierPhases {
 public:
  std::vector<SharedAccess> accesses;

  // True when `a` and `b` (of `accesses`) may run at once in two threads of a block.
  bool may_share_phase(const SharedAccess& a, const SharedAccess& b) const;

  // The `for` loops around `inner` and not around `outer` whose last iteration `inner` runs in
  // whenever it runs at once with `outer`: every pass through the loop meets a barrier and the
  // loop is left only by its (block-uniform) test, so a thread past the loop and a thread inside
  // it are in its last iteration.
  std::vector<const clang::Stmt*> loops_ended_between(const SharedAccess& inner, const SharedAccess& outer) const;

  // The symbols (symbol_key, or an expression's own ID) that may hold another value for a thread
  // at `a` than for a thread at `b` while the two run at once: variables assigned on the way from
  // one to the other, or from a thread-dependent branch to either; and everything a loop without
  // a barrier on those ways computes, since the two threads may be in different iterations.
  std::set<std::string> changing_between(const SharedAccess& a, const SharedAccess& b) const;

 private:
  friend BarrierPhases find_barrier_phases(const ThreadValues& values);
  std::size_t position(const SharedAccess& access) const { return std::size_t(&access - accesses.data()); }
  bool meet_at(const llvm::BitVector& nodes, const SharedAccess& access) const;
  bool leaves_only_by_its_test(const clang::CFGBlock* header) const;

  const ThreadValues* values_ = nullptr;
  std::shared_ptr<const BarrierFlow> flow_;  // null where Clang built no CFG
  std::vector<llvm::BitVector> after_, before_;  // by access: reachable from it, reaching it
  std::vector<unsigned> divergent_branches_;     // terminators whose test differs between threads
  std::vector<llvm::BitVector> after_branch_;    // by divergent branch
};

BarrierPhases find_barrier_phases(const ThreadValues& values);

bool contains_barrier(const clang::Stmt* statement);

}  // namespace carbide::analysis
