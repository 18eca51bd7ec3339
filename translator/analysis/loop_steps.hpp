// Variables that for loops move by a constant step once per iteration, and what that makes
// their value at a use: the initializer, moved by every earlier loop's whole run and by the
// iterations so far of the loop the use is in. The work-efficient (Blelloch) scan needs it:
// `offset` doubles in the up-sweep and halves in the down-sweep, in step with each loop's
// counter, so at an access it is 1 << k for the counter's iteration k, not any integer.
//
// Sound where it answers. A variable qualifies only when every definition is its initializer or
// a step written unconditionally in a for loop (a statement of the loop's body, or its
// increment) or in a plain `{ }`, the declaration and those loops and blocks are statements of
// one block, the loops count with a counter of their own (or, with no init, with the variable
// itself, stepped in the increment), and nothing jumps inside them (break, continue, goto):
// each iteration then takes exactly one step, each block one, and they run one after the other.
// A use after a loop that counts with the variable itself is not answered (its trip count is
// not known).
#pragma once

#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace carbide::analysis {

class ThreadValues;

// One step of a variable: `++v`, `v -= 3`, `v *= 4`, `v <<= 1`, `v >>= 2`, `v /= 2`.
struct Step {
  enum class Kind { Add, ShiftLeft, ShiftRight };
  Kind kind = Kind::Add;
  std::int64_t amount = 0;  // Add: the signed addend; shifts: bits per step
  // `/= 2^c` of a signed value rounds toward zero: a shift only while the value is not negative.
  bool toward_zero = false;
};

std::optional<Step> constant_step(const clang::Stmt* site, const ThreadValues& values);

struct LoopRun {
  const clang::ForStmt* loop = nullptr;  // null: a step taken once, outside any loop
  Step step;
};

struct SteppedValue {
  const clang::Expr* start = nullptr;  // the variable's initializer
  std::vector<LoopRun> finished;       // loops that ran to their end before the use, in order
  std::optional<LoopRun> current;      // the loop whose iteration the use is in
  bool after_step = false;             // the use follows the current loop's step
};

std::optional<SteppedValue> stepped_value(const ThreadValues& values, const clang::DeclRefExpr* use);

// The counter a for loop declares in its head and steps in its increment, if it has one.
const clang::VarDecl* loop_counter(const ThreadValues& values, const clang::ForStmt* loop);

}  // namespace carbide::analysis
