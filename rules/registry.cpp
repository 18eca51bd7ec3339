#include "rule.hpp"

#include "device_unsupported.hpp"
#include "kernel_signature.hpp"
#include "launch_contract.hpp"
#include "missing_contract.hpp"

namespace carbide::rules {

std::vector<std::unique_ptr<Rule>> make_all_rules() {
  std::vector<std::unique_ptr<Rule>> rules;
  rules.push_back(std::make_unique<KernelSignatureRule>());
  rules.push_back(std::make_unique<LaunchContractRule>());
  rules.push_back(std::make_unique<MissingContractRule>());
  rules.push_back(std::make_unique<DeviceUnsupportedRule>());
  return rules;
}

void run_all_rules(const RuleContext& context) {
  for (const auto& rule : make_all_rules()) rule->check(context);
}

diag::Finding finding(std::string_view rule, diag::Severity severity, clang::SourceLocation where,
                      std::string message, clang::SourceRange range) {
  diag::Finding result;
  result.rule = std::string(rule);
  result.severity = severity;
  result.location = where;
  result.message = std::move(message);
  if (range.isValid()) result.highlights.push_back(clang::CharSourceRange::getTokenRange(range));
  return result;
}

}  // namespace carbide::rules
