#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-divergent-barrier: block::sync() under control flow that differs between the threads
// of a block (or after a thread-dependent early return), and warp collectives under control
// flow that differs between the lanes of a warp.
class DivergentBarrierRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-divergent-barrier"; }
  std::string_view summary() const override {
    return "a barrier or warp collective under thread-dependent control flow or after a thread-dependent return";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
