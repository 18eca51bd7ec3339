#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-shared-race: within one barrier phase, a shared-memory read of a slot another thread
// may write, or writes by different threads not provably to distinct slots.
class SharedRaceRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-shared-race"; }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
