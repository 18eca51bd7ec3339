#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-kernel-signature: a kernel is a void free function in a named namespace whose
// parameters are views or trivially copyable values.
class KernelSignatureRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-kernel-signature"; }
  std::string_view summary() const override {
    return "a kernel that returns a value, is a member, template or variadic, or takes a raw pointer, a reference or a non-trivially-copyable value";
  }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
