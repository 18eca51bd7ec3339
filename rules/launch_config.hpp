#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-launch-config: host code that prepares a launch with a configuration whose constant
// fields break the kernel's contract (its domain, block, grid past the domain, dynamic shared
// memory), where prepare_<k> would throw carbide::LaunchContractError at run time.
class LaunchConfigRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-launch-config"; }
  std::string_view summary() const override {
    return "a launch configuration whose constant fields break the kernel's launch contract";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
