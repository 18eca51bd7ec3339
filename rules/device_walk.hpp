// The shape most rules share: a visitor over every statement of device code (each device
// function's body, lambdas included, in source order) that reports errors under one rule name.
#pragma once

#include "rule.hpp"

#include <clang/AST/RecursiveASTVisitor.h>

namespace carbide::rules {

template <class Derived>
class DeviceCodeFinder : public clang::RecursiveASTVisitor<Derived> {
 public:
  DeviceCodeFinder(const RuleContext& context, std::string_view rule)
      : context_(context), rule_(rule) {}

  void run() {
    for (const clang::FunctionDecl* function : context_.device.definitions())
      this->TraverseStmt(function->getBody());
  }

 protected:
  diag::Finding error(clang::SourceLocation at, std::string message,
                      clang::SourceRange range = {}) const {
    return finding(rule_, diag::Severity::Error, at, std::move(message), range);
  }
  void report(clang::SourceLocation at, std::string message, clang::SourceRange range = {}) {
    context_.reporter.report(error(at, std::move(message), range));
  }

  const RuleContext& context_;
  std::string_view rule_;
};

}  // namespace carbide::rules
