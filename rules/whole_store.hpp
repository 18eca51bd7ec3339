#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-whole-store (error): a whole-chunk store the launch cannot vouch for. store_whole has no
// partial-chunk path; it is safe because each launch checks that the view's length is a multiple
// of the chunk, and the stub can check that only of a kernel parameter whose claim it can trace.
class WholeStoreRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-whole-store"; }
  std::string_view summary() const override {
    return "store_whole on a chunk whose view the launch cannot check is whole chunks";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
