#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-tile-grid: the ct::out parameters of one tile kernel that cannot give one grid. Each
// out's partition fixes a grid (its tiles per axis); a launch has one, so outs of another rank
// never fit, and outs of other tile shapes fit only for extents that happen to agree.
class TileGridRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-tile-grid"; }
  std::string_view summary() const override {
    return "ct::out parameters of one tile kernel whose partitions cannot give, or need not give, one grid";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
