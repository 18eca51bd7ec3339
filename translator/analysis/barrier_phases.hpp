// Splits a device function into barrier phases (the code between two block::sync() calls) and
// lists its shared-memory accesses with the phases each may run in.
//
// A phase is named by the barrier that starts it. In a loop with a barrier, the phase after it
// runs on into the next iteration's head or, once the (block-uniform) loop ends, into the code
// after the loop, never both: those continuations get names that extend the barrier's own
// ("S3^b1", "S3^x1"), and two accesses can run concurrently when one's phase name is a prefix
// of the other's. A barrier on one side of a thread-dependent branch ends the phase for the
// whole block (it is reported as divergent, and one diagnostic per fault is enough); behind a
// block-uniform branch it may not run, so both ways continue. A loop with a barrier whose first
// test may fail (a trip count that can be zero) lets the phase before it run on past it.
#pragma once

#include <clang/AST/ExprCXX.h>

#include <set>
#include <string>
#include <vector>

namespace carbide::analysis {

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
  std::set<std::string> phases;
  // A helper's access to an array its caller passed: `tile[i]` in the helper. The helper is
  // analysed as if inlined at each call, the helper's parameters standing for the arguments.
  const clang::CallExpr* in_helper = nullptr;
  // In a helper without barriers, an access to an array passed in: its callers check it.
  bool checked_in_callers = false;
};

// True when two accesses may run in one phase.
bool may_share_phase(const SharedAccess& a, const SharedAccess& b);

struct BarrierPhases {
  std::vector<SharedAccess> accesses;
  std::vector<const clang::CallExpr*> barriers;
  std::vector<const clang::Stmt*> loops;  // by the number their phase names use
};

// The loops, `inner` inside them, whose end every phase `inner` shares with `outer` runs past:
// `inner` then ran in each one's last iteration, since the phase after a loop's last barrier
// goes on past the loop only from the iteration whose next test fails.
std::vector<const clang::Stmt*> loops_ended_between(const BarrierPhases& phases, const SharedAccess& inner,
                                                    const SharedAccess& outer);

class ThreadValues;
BarrierPhases find_barrier_phases(const ThreadValues& values);

bool contains_barrier(const clang::Stmt* statement);

}  // namespace carbide::analysis
