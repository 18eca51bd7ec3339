// The few values a local integer variable can hold anywhere in its function, when every
// definition of it combines constants and variables of the same kind: `pout = 1 - pout`
// (started at 0) holds 0 or 1, and so does `pin = 1 - pout`. Found by iterating the definitions
// to a fixed point, flow-insensitively: a superset of what any one use sees, so facts built on
// it are sound. None when a definition reads anything else, or past kLimit values.
#pragma once

#include "analysis/thread_values.hpp"

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
  using Sets = std::map<const clang::VarDecl*, std::set<std::int64_t>>;
  // The variables `var`'s definitions read, and theirs; false when one reads anything else.
  bool collect(const clang::VarDecl* var, std::set<const clang::VarDecl*>& group) const;
  bool reads_only_group(const clang::Expr* expr, std::set<const clang::VarDecl*>& group) const;
  std::optional<std::set<std::int64_t>> evaluate(const clang::Expr* expr, const Sets& sets) const;
  std::optional<std::set<std::int64_t>> defined(const clang::Stmt* site, const clang::VarDecl* var,
                                                const Sets& sets) const;

  const ThreadValues& values_;
};

}  // namespace carbide::analysis
