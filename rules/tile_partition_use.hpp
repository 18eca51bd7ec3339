#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-tile-partition-use: a carbide::Tensor used after `std::move(t).partition(shape)` emptied
// it and before `t = std::move(p).unpartition();` gave it back (and a Partition used after
// unpartition emptied it), on some path through the host function, in the manner of clang-tidy's
// bugprone-use-after-move. The moved-from handle is also empty at run time, where a launch
// rejects it; this says so before the program runs.
class TilePartitionUseRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-tile-partition-use"; }
  std::string_view summary() const override {
    return "a Tensor used after it was moved into a partition and before unpartition gave it back";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
