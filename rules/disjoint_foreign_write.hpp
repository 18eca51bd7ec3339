#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-disjoint-foreign-write: indexing or pointer arithmetic on the pointer get_mut
// returned, or two ownership forms on one view, each of which reaches elements that belong to
// other threads.
class DisjointForeignWriteRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-disjoint-foreign-write"; }
  std::string_view summary() const override {
    return "indexing or pointer arithmetic on the pointer get_mut returned, or two ownership forms on one view";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
