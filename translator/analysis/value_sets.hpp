// The few values a local integer variable can hold anywhere in its function, when every
// definition of it combines constants and variables of the same kind: `pout = 1 - pout`
// (started at 0) holds 0 or 1, and so does `pin = 1 - pout`. Found by iterating the definitions
// to a fixed point, flow-insensitively: a superset of what any one use sees, so facts built on
// it are sound. Each value is computed as the type of the expression holding it holds it (its
// width and signedness, a conversion to bool testing for non-zero). None when a definition reads
// anything else, past kLimit values, or when a value does not fit std::int64_t.
#pragma once

#include "analysis/thread_values.hpp"

#include <llvm/ADT/APSInt.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>

namespace carbide::analysis {

class ValueSets {
 public:
  explicit ValueSets(const ThreadValues& values) : values_(values) {}

  std::optional<std::set<std::int64_t>> of(const clang::VarDecl* var) const;

  static constexpr std::size_t kLimit = 16;

 private:
  // Values of one integer type, each an APSInt of that type's width and signedness.
  struct ByValue {
    bool operator()(const llvm::APSInt& a, const llvm::APSInt& b) const {
      return llvm::APSInt::compareValues(a, b) < 0;
    }
  };
  using Held = std::set<llvm::APSInt, ByValue>;
  using Sets = std::map<const clang::VarDecl*, Held>;
  // The variables `var`'s definitions read, and theirs; false when one reads anything else.
  bool collect(const clang::VarDecl* var, std::set<const clang::VarDecl*>& group) const;
  bool reads_only_group(const clang::Expr* expr, std::set<const clang::VarDecl*>& group) const;
  std::optional<Held> evaluate(const clang::Expr* expr, const Sets& sets) const;
  std::optional<Held> evaluate_conversion(const clang::CastExpr* cast, const Sets& sets) const;
  std::optional<Held> evaluate_binary(const clang::BinaryOperator* op, const Sets& sets) const;
  std::optional<Held> evaluate_unary(const clang::UnaryOperator* op, const Sets& sets) const;
  std::optional<Held> defined(const clang::Stmt* site, const clang::VarDecl* var, const Sets& sets) const;
  std::optional<Held> compound_assigned(const clang::CompoundAssignOperator* op, const clang::VarDecl* var,
                                        const Sets& sets) const;

  const ThreadValues& values_;
};

}  // namespace carbide::analysis
