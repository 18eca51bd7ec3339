#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-launch-contract: a contract that is malformed, names an unknown field, disagrees with
// the index witnesses the kernel uses, or asks for a block larger than its launch bounds.
class LaunchContractRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-launch-contract"; }
  std::string_view summary() const override {
    return "a malformed launch contract, an unknown field, a domain that does not match the witnesses, a block larger than the launch bounds";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
