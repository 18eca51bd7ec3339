#include "codegen/checked_arrays.hpp"

#include "analysis/array_indexes.hpp"
#include "codegen/generated_text.hpp"

#include <clang/Lex/Lexer.h>

#include <algorithm>

namespace carbide::codegen {

std::vector<TextWrap> checked_array_wraps(const std::vector<const clang::ArraySubscriptExpr*>& subscripts,
                                          const clang::ASTContext& context) {
  const clang::SourceManager& sources = context.getSourceManager();
  std::vector<std::pair<unsigned, TextWrap>> sized;  // the operand's length in bytes, and its wrap
  for (const clang::ArraySubscriptExpr* subscript : subscripts) {
    const auto operand = analysis::checkable_array_operand(subscript, context);
    if (!operand) continue;
    const std::string text = clang::Lexer::getSourceText(*operand, sources, context.getLangOpts()).str();
    const clang::SourceLocation last =
        clang::Lexer::GetBeginningOfToken(operand->getEnd().getLocWithOffset(-1), sources, context.getLangOpts());
    sized.push_back({unsigned(text.size()),
                     {operand->getBegin(), last, "::carbide::detail::checked(",
                      ", " + c_string_literal("the array '" + text + "'") + ")"}});
  }
  std::stable_sort(sized.begin(), sized.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<TextWrap> wraps;
  for (auto& [length, wrap] : sized) wraps.push_back(std::move(wrap));
  return wraps;
}

}  // namespace carbide::codegen
