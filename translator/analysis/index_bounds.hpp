// The range of values an integer expression can take in any thread of a launch that keeps the
// function's contract: thread coordinates are below the contract's block extents, counters of
// loops with bounded conditions stay below their bounds, constants are themselves. Codegen uses
// it to drop bounds checks the contract already guarantees.
#pragma once

#include "analysis/thread_values.hpp"

#include <clang/AST/Stmt.h>
#include <llvm/ADT/FoldingSet.h>

#include <map>
#include <optional>
#include <vector>

namespace carbide::analysis {

struct IndexRange {
  __int128 low = 0, high = 0;  // inclusive
};

// The range, where every value in it is one `type` holds; empty when one is not (the value could
// wrap).
std::optional<IndexRange> fitted(std::optional<IndexRange> range, clang::QualType type,
                                 const clang::ASTContext& context);

class IndexBounds {
 public:
  explicit IndexBounds(const ThreadValues& values);

  // The range of `expr` wherever it is evaluated. Empty when some part of the expression is not
  // bounded, or when an operation in it may wrap.
  std::optional<IndexRange> range(const clang::Expr* expr) const { return range(expr, {}, 0); }

  // The range of `expr` evaluated at `site`, narrowed by the conditions that hold there
  // (`lane.get() < kWarps ? tile[lane.get()] : 0.f`, `if (i < 8) tile[i + 24] = …`).
  std::optional<IndexRange> range_at(const clang::Expr* expr, const clang::Stmt* site) const;

  // The slots a shared subscript's index (an integer, or the local witness) reaches at `site`.
  std::optional<IndexRange> subscript_range(const clang::Expr* index, const clang::Stmt* site) const;

 private:
  // What a condition at the site says about one subexpression, compared structurally.
  struct Fact {
    llvm::FoldingSetNodeID subject;
    IndexRange range;
  };
  using Facts = std::vector<Fact>;

  std::optional<IndexRange> range(const clang::Expr* expr, const Facts& facts, int depth) const;
  std::optional<IndexRange> unnarrowed(const clang::Expr* expr, const Facts& facts, int depth) const;
  std::optional<IndexRange> variable_range(const clang::VarDecl* var, int depth) const;
  std::optional<IndexRange> loop_counter_range(const clang::ForStmt& loop,
                                               const clang::VarDecl* counter, int depth) const;
  // Thread coordinates, witnesses' values and the extents of a thread's output piece.
  std::optional<IndexRange> vocabulary_value(const clang::Expr* expr) const;
  bool only_read(const clang::VarDecl* var, const clang::Stmt* except) const;
  bool same_at_test_and_site(const clang::Expr* subject) const;
  void add_facts(const clang::Expr* condition, bool holds, Facts& facts) const;
  void add_comparison_fact(const clang::Expr* subject, clang::BinaryOperatorKind op,
                           const clang::Expr* other, Facts& facts) const;

  const ThreadValues& values_;
};

}  // namespace carbide::analysis
