#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-unsafe-required: unchecked operations outside CARBIDE_UNSAFE: dereferencing,
// indexing or reaching members through a raw pointer whose target the analysis cannot name,
// inline asm, and const_cast.
class UnsafeRequiredRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-unsafe-required"; }
  std::string_view summary() const override {
    return "a raw-pointer dereference, asm or const_cast outside CARBIDE_UNSAFE";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
