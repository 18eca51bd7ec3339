#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-tile-shape: tile shapes that do not fit together in a tile kernel: an op's operands, a
// store and its out, an mma's k and accumulator, a bcast, a reshape's element count, a
// partition's rank. The message names both shapes.
class TileShapeRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-tile-shape"; }
  std::string_view summary() const override {
    return "tile shapes that do not fit together: an op's operands, a store, an mma's k, a bcast, a reshape, a partition's rank";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
