// The edit that checks an unproven subscript of a fixed-size C array, the same for the GPU and
// the CPU forms: `acc[j]` → `::carbide::detail::checked(acc, "the array 'acc'")[j]`.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>

#include <optional>
#include <string>
#include <vector>

namespace carbide::codegen {

struct TextWrap {
  clang::SourceLocation begin, end;  // the first and the last token
  std::string before, after;
};

// The wraps of the array operands, inner ones first (`m[i][j]` checks m, then the row m[i]), so
// that each outer wrap, inserted before it at the same place, encloses it. Operands codegen
// cannot edit are left out (analysis::checkable_array_operand; a rule reports them).
std::vector<TextWrap> checked_array_wraps(const std::vector<const clang::ArraySubscriptExpr*>& subscripts,
                                          const clang::ASTContext& context);

}  // namespace carbide::codegen
