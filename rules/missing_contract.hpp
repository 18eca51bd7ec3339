#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-missing-contract (warning): a kernel without CARBIDE_LAUNCH_CONTRACT gets only an
// unchecked unsafe_launch_<kernel> entry.
class MissingContractRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-missing-contract"; }
  std::string_view summary() const override {
    return "a kernel without a launch contract; it gets only an unsafe_launch_ entry";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
