#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-witness-escape: a thread-index witness that leaves the thread's own control: taken
// by address or stored in an object, returned, captured by reference, or moved.
class WitnessEscapeRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-witness-escape"; }
  std::string_view summary() const override {
    return "a thread-index witness stored, returned, captured by reference or moved";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
