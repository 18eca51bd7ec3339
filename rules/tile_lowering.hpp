#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-tile-lowering: a tile kernel that says something the Tile path's language allows, but
// that the lowering for the translation's targets cannot take (an mma shape its staging does not
// cover, more shared memory than the smallest target gives, a reduction's row it cannot split).
// check and translate plan alike, so what check accepts translates; what it cannot is reported
// here, at the user's line, instead of as an nvcc error about the device library.
class TileLoweringRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-tile-lowering"; }
  std::string_view summary() const override {
    return "a tile kernel form the lowering for the target architectures cannot take (mma shapes, shared memory, rows)";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
