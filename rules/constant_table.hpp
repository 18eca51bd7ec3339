#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-constant-table: a CARBIDE_CONSTANT declaration that cannot be a table in the device's
// constant memory (its place, its type, its size), and host code that uses a table's host copy,
// which kernels never read.
class ConstantTableRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-constant-table"; }
  std::string_view summary() const override {
    return "a CARBIDE_CONSTANT table that cannot be placed, or host code using one instead of its module's setter";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
