#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-launch-aliasing: host code passing one buffer to an exclusive (disjoint_span or
// atomic_span) parameter and to another buffer parameter of the same launch.
class LaunchAliasingRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-launch-aliasing"; }
  std::string_view summary() const override {
    return "one buffer passed to an exclusive parameter and another buffer parameter of one launch";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
