#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-shared-race: within one barrier phase, a shared-memory read of a slot another thread
// may write, or writes by different threads not provably to distinct slots.
class SharedRaceRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-shared-race"; }
  std::string_view summary() const override {
    return "a shared-memory read of a slot another thread writes in the same barrier phase, or non-disjoint writes";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
