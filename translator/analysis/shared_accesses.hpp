// What a shared-memory access looks like in the AST: `tile[i]` or `tile.fetch_add(i, v)`, its
// handle and index, and whether the expression around it reads, writes or both. And the
// accesses a helper makes to arrays its caller passes in: a helper without barriers runs
// inside one of its caller's barrier phases, so its accesses are checked there, as if the
// helper were inlined at the call, the helper's parameters standing for the arguments.
#pragma once

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMap.h>

#include <vector>

namespace carbide::analysis {

// tile[i] or tile.fetch_add(i, v).
bool is_tile_access(const clang::CallExpr* call);
const clang::Expr* tile_handle(const clang::CallExpr* access);
const clang::Expr* tile_index(const clang::CallExpr* access);
// The array of `carbide::dynamic_extent` elements: every handle to it is the same memory.
bool is_dynamic_handle(const clang::Expr* handle);

struct AccessUse {
  bool reads = false;
  bool writes = false;
  bool atomic = false;
  // A subscript into an array member of the element that may leave that member (and reach the
  // next element): the slot is not the access's index alone.
  bool leaves_element = false;
  // Its address or a mutable reference to it leaves the expression (`&tile[0]`, `float& r =
  // tile[i]`, a non-const reference parameter): a write wherever the alias goes.
  bool aliased = false;
};
// How the enclosing expression uses the element: read, written, or both; only what surely
// only reads (a conversion to a value, a const reference, a const member function) is a read.
AccessUse classify_use(const clang::CallExpr* access, const clang::ParentMap& parents);

// The argument that the callee's first parameter takes: 1 for a member operator called on an
// object (a lambda's call operator among them), whose argument 0 is the object.
unsigned first_parameter_argument(const clang::CallExpr* call);

// True when a call to `function` may reach block::sync(), itself or through its helpers.
bool reaches_barrier(const clang::FunctionDecl* function);

// A call to a helper of the user's (not Carbide's) that takes a shared array and reaches no
// barrier: its accesses belong to the caller's phase at the call. A lambda's call is one where
// followed_lambda holds and the lambda captures a shared array.
const clang::FunctionDecl* inlinable_helper(const clang::CallExpr* call);

// Whether a lambda's accesses are checked at its calls, as a helper's are, rather than where it
// is written (where carbide-shared-race refuses them): a lambda that is not generic, reaches no
// barrier, declares no shared array and captures one (or reaches dynamic shared memory), held in
// a local variable `holder` that its function only ever calls (never copies, passes, captures or
// binds), so that every call of it is in sight.
bool checked_at_calls(const clang::LambdaExpr* lambda, const clang::VarDecl* holder);
// The variable a lambda initializes (`auto load = [&](…) {…};`), found through `parents`.
const clang::VarDecl* lambda_holder(const clang::LambdaExpr* lambda, const clang::ParentMap& parents);
// The lambda a call runs where checked_at_calls holds for it; null for any other call.
const clang::LambdaExpr* followed_lambda(const clang::CallExpr* call);

struct HelperAccess {
  const clang::CallExpr* access = nullptr;  // in the helper, or in a helper it calls
  const clang::Expr* handle = nullptr;      // the caller's array
  // The index in the caller's terms where it is one of the helper's parameters; otherwise the
  // helper's own expression, with `index_in` the helper whose terms it is in.
  const clang::Expr* index = nullptr;
  const clang::FunctionDecl* index_in = nullptr;
  AccessUse use;
  // For an access of a helper with barriers (BoundaryPhase): which of its phases it runs in.
  unsigned boundary = 0;
};

// How many calls below the function being analysed helpers are followed (a helper's helpers
// and theirs); carbide-device-unsupported refuses a call chain from a kernel that goes deeper,
// so nothing is followed in part.
constexpr int kMaxHelperDepth = 8;

// The phases of a helper with barriers that run in its caller's phase at the call: the first
// (before any barrier) and the last (after every barrier), as bits.
enum BoundaryPhase : unsigned { kFirstPhase = 1, kLastPhase = 2 };

// The accesses the helper `call` reaches (inlinable_helper(call) must hold) make to arrays
// passed in, in the caller's terms.
std::vector<HelperAccess> helper_accesses(const clang::CallExpr* call);

}  // namespace carbide::analysis
