// What a value is across the threads of a block: its uniformity (§3.1 of DESIGN.md), and, for
// integers, its affine form over the flat local index L (`lid.get()`), which the shared-race
// rule reasons with. Per function, flow-insensitive over local variables.
#pragma once

#include "analysis/control_conditions.hpp"
#include "analysis/reaching_definitions.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ParentMap.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace carbide::analysis {

enum class Uniformity { Uniform = 0, WarpUniform = 1, Divergent = 2 };

inline Uniformity join(Uniformity a, Uniformity b) { return a > b ? a : b; }

// (local·L + x·tx + y·ty + Σ coefficient·symbol + constant) / divisor, where symbols are
// block-uniform values and tx, ty are thread_idx().x and .y in blocks of more than one dimension
// (in a one-dimensional block tx is L itself).
struct Affine {
  std::int64_t local = 0;
  std::int64_t x = 0, y = 0;
  std::map<std::string, std::int64_t> symbols;
  std::int64_t constant = 0;
  std::int64_t divisor = 1;

  Affine plus(const Affine& other, std::int64_t sign = 1) const;
  Affine scaled(std::int64_t factor) const;
  bool is_constant() const { return local == 0 && x == 0 && y == 0 && symbols.empty() && divisor == 1; }
  bool varies_by_thread() const { return local != 0 || x != 0 || y != 0; }
  bool operator==(const Affine& other) const;
};

// The launch shape the function runs under, when every kernel that reaches it agrees.
struct BlockShape {
  std::uint64_t extent[3] = {0, 0, 0};  // the contract's block; 0 when unknown

  bool known() const { return extent[0] != 0; }
  std::optional<std::uint64_t> threads() const {
    if (!known()) return std::nullopt;
    return extent[0] * extent[1] * extent[2];
  }
  bool one_dimensional() const { return known() && extent[1] == 1 && extent[2] == 1; }
  bool operator==(const BlockShape& other) const {
    return std::equal(extent, extent + 3, other.extent);
  }
};

class ThreadValues {
 public:
  // How the function's own parameters count: a kernel's are the launch's (the same in every
  // thread); a helper's are whatever its caller passes, so Divergent, except when the question is
  // what the helper's body adds to its arguments' uniformity (Uniform, the callee's side of a
  // helper call: see call_uniformity).
  enum class Parameters { AsDeclared, Uniform };

  ThreadValues(clang::ASTContext& context, const clang::FunctionDecl* function, BlockShape shape,
               Parameters parameters = Parameters::AsDeclared, int nesting = 0);

  Uniformity uniformity(const clang::Expr* expr) const;
  std::optional<Affine> affine(const clang::Expr* expr) const;
  // The value of an integer constant expression (constant_of, memoized for the function).
  std::optional<std::int64_t> constant(const clang::Expr* expr) const;
  const BlockShape& shape() const { return shape_; }
  const clang::ParentMap& parents() const { return parents_; }
  clang::ASTContext& context() const { return context_; }
  const clang::FunctionDecl* function() const { return function_; }

  // The branches that decide whether a statement runs, on the function's CFG.
  const ControlConditions& control() const { return control_; }

  // Every statement that gives a local variable a value: its declaration when it has an
  // initializer, then assignments and increments, in source order.
  llvm::ArrayRef<const clang::Stmt*> definition_sites(const clang::VarDecl* var) const;
  // The initializer of a local variable nothing else assigns; null when there is none.
  const clang::Expr* sole_initializer(const clang::VarDecl* var) const;
  // The for loop whose head declares `var`, if any.
  const clang::ForStmt* counted_loop(const clang::VarDecl* var) const;
  // The definition sites (as definition_sites lists them) that may give `use` its value, on
  // the CFG; none when that is not known.
  std::optional<std::vector<const clang::Stmt*>> reaching_definitions(const clang::DeclRefExpr* use) const;

  // A variable that may change where no assignment names it (analysis/changed_variables: an
  // address taken, a mutable reference bound, a write through a lambda's reference capture). Its
  // definitions are not all known, so none are given out: it is any value, each thread's own.
  bool escapes(const clang::VarDecl* var) const { return escaping_.count(var) != 0; }
  // Whether the body assigns the variable (or a member or element of it) besides initializing it.
  bool reassigned(const clang::VarDecl* var) const {
    const auto found = definition_sites_.find(var);
    return found != definition_sites_.end() && found->second.size() > (var->getInit() ? 1u : 0u);
  }

 private:
  std::optional<Affine> affine(const clang::Expr* expr, int depth) const;
  std::optional<Affine> compute_affine(const clang::Expr* expr, int depth) const;
  // The form of `expr` (widening stripped) in 64-bit arithmetic; compute_affine brings it to the
  // expression's width.
  std::optional<Affine> form_as_written(const clang::Expr* expr, int depth) const;
  Uniformity uniformity(const clang::Expr* expr, int depth) const;
  Uniformity compute_uniformity(const clang::Expr* expr, int depth) const;
  // Whether a form that varies by thread is the same for every lane of a warp.
  bool same_across_warp(const Affine& form) const;
  bool warp_quotient(const clang::BinaryOperator* op, int depth) const;
  std::optional<std::int64_t> constant(const clang::Expr* expr, int depth) const;
  template <class Result, class Compute>
  Result memoized(std::map<const clang::Expr*, Result>& cache, const clang::Expr* expr, int depth,
                  Result cut_short, Compute compute) const;
  Uniformity call_uniformity(const clang::CallExpr* call, int depth) const;
  Uniformity parameter_uniformity(const clang::ParmVarDecl* parameter) const;
  // What a user function's body adds to the uniformity of its arguments: the join of its
  // returned values and of the branches its returns are under, with its parameters uniform.
  Uniformity body_uniformity(const clang::FunctionDecl* callee) const;
  std::optional<Uniformity> comparison_uniformity(const clang::BinaryOperator* op, int depth) const;
  void compute_variable_uniformity();

  clang::ASTContext& context_;
  const clang::FunctionDecl* function_;
  BlockShape shape_;
  Parameters parameters_;
  int nesting_;  // helpers whose bodies are being read to answer for their callers
  std::set<const clang::VarDecl*> escaping_;
  mutable std::map<const clang::FunctionDecl*, Uniformity> bodies_;
  clang::ParentMap parents_;
  ControlConditions control_;
  // Each local variable's definitions: its initializer and every assignment to it.
  std::map<const clang::VarDecl*, std::vector<const clang::Expr*>> definitions_;
  std::map<const clang::VarDecl*, std::vector<const clang::Stmt*>> definition_sites_;
  std::map<const clang::VarDecl*, Uniformity> variables_;
  std::map<const clang::VarDecl*, const clang::ForStmt*> loop_counters_;
  // The parts of block-stride loops that stand for their range (see DefinitionCollector).
  std::map<const clang::Expr*, const clang::CallExpr*> block_stride_parts_;
  std::unique_ptr<ReachingDefinitions> reaching_;
  mutable std::map<const clang::Expr*, Uniformity> uniformity_cache_;
  mutable std::map<const clang::Expr*, std::optional<Affine>> affine_cache_;
  mutable std::set<const clang::Expr*> affine_in_progress_;
  mutable std::map<const clang::Expr*, std::optional<std::int64_t>> constants_;
  mutable bool truncated_ = false;
};

// The name an affine form gives a uniform variable.
std::string symbol_key(const clang::ValueDecl* variable);

// `std::min(a, b)` or `std::max(a, b)` (or the global ones CUDA code calls): which of the two.
enum class Extremum { Min, Max };
std::optional<Extremum> min_or_max(const clang::CallExpr* call);

// The value of an integer constant expression.
std::optional<std::int64_t> constant_of(const clang::Expr* expr, const clang::ASTContext& context);

// True when `expr` is the block-local witness itself (`tile[lid]`).
bool is_local_witness(const clang::Expr* expr);

// `expr` without parentheses, implicit casts, and explicit casts between integer types that
// keep every value a thread coordinate or an index can take (`int(thread_idx().x)`).
const clang::Expr* strip_integral_casts(const clang::Expr* expr);

}  // namespace carbide::analysis
