#pragma once

#include "rule.hpp"

namespace carbide::rules {

// carbide-kernel-signature: a kernel is a void free function in a named namespace whose
// parameters are views or trivially copyable values.
class KernelSignatureRule final : public Rule {
 public:
  std::string_view name() const override { return "carbide-kernel-signature"; }
  void check(const RuleContext& context) override;
};

}  // namespace carbide::rules
