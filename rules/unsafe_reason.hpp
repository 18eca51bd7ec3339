#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-unsafe-reason (warning): a CARBIDE_UNSAFE block whose reason is empty.
class UnsafeReasonRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-unsafe-reason"; }
  std::string_view summary() const override {
    return "a CARBIDE_UNSAFE block with an empty reason";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
