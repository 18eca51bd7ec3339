#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-global-write: device code writing a namespace-scope, static or static-local
// variable, which every thread of every block shares without any synchronisation.
class GlobalWriteRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-global-write"; }
  std::string_view summary() const override {
    return "device code writing namespace-scope, static or static-local storage";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
