#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-device-unsupported: device code that cannot run on a GPU: exceptions, RTTI, virtual
// calls, recursion, new/delete, and calls to functions whose body the translator cannot see.
class DeviceUnsupportedRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-device-unsupported"; }
  std::string_view summary() const override {
    return "device code that cannot run on a GPU: exceptions, RTTI, virtual calls, recursion, new/delete, calls without a visible body";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
