// Rules that look at every statement of device code share this walk: each device function's
// body, lambdas included, in source order.
#pragma once

#include "rule.hpp"

#include <clang/AST/RecursiveASTVisitor.h>

namespace carbide::rules {

template <class Visitor>
void walk_device_code(const RuleContext& context, Visitor& visitor) {
  for (const clang::FunctionDecl* function : context.device.definitions())
    visitor.TraverseStmt(function->getBody());
}

}  // namespace carbide::rules
