#include "tile/source_text.hpp"

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <vector>

namespace carbide::tile {

std::string text_of(const clang::Stmt* statement, const clang::ASTContext& context) {
  const clang::SourceManager& sources = context.getSourceManager();
  const clang::CharSourceRange range = clang::CharSourceRange::getTokenRange(
      sources.getExpansionRange(statement->getSourceRange()).getAsRange());
  return clang::Lexer::getSourceText(range, sources, context.getLangOpts()).str();
}

std::string rewritten_text(const clang::Expr* expr, const clang::ASTContext& context, const Rewrite& rewrite) {
  struct Replacement {
    const clang::Stmt* at;
    std::string text;
  };
  std::vector<Replacement> replacements;
  std::function<void(const clang::Stmt*)> visit = [&](const clang::Stmt* s) {
    if (s == nullptr) return;
    if (auto text = rewrite(s)) {
      replacements.push_back({s, *text});
      return;
    }
    for (const clang::Stmt* child : s->children()) visit(child);
  };
  if (auto whole = rewrite(expr)) return *whole;
  for (const clang::Stmt* child : expr->children()) visit(child);
  std::string text = text_of(expr, context);
  const clang::SourceManager& sources = context.getSourceManager();
  const auto offset = [&](const clang::Stmt* s) { return sources.getFileOffset(sources.getExpansionLoc(s->getBeginLoc())); };
  const unsigned base = offset(expr);
  // Back to front, so that each offset still holds when it is used.
  std::stable_sort(replacements.begin(), replacements.end(),
                   [&](const Replacement& a, const Replacement& b) { return offset(a.at) > offset(b.at); });
  unsigned previous = ~0u;
  for (const Replacement& replacement : replacements) {
    const unsigned begin = offset(replacement.at) - base;
    const std::size_t length = text_of(replacement.at, context).size();
    // Two subexpressions from one macro expansion share a location: the first one only.
    if (begin == previous || begin + length > text.size()) continue;
    text.replace(begin, length, replacement.text);
    previous = begin;
  }
  return text;
}

std::optional<std::string> constant_text(const clang::Expr* expr, const clang::ASTContext& context) {
  if (expr->isValueDependent() || expr->isTypeDependent()) return std::nullopt;
  clang::Expr::EvalResult result;
  if (!expr->EvaluateAsRValue(result, context) || result.HasSideEffects) return std::nullopt;
  const clang::APValue& value = result.Val;
  if (value.isInt()) {
    const llvm::APSInt& integer = value.getInt();
    if (expr->getType()->isBooleanType()) return std::string(integer.getBoolValue() ? "true" : "false");
    std::string text = llvm::toString(integer, 10);
    return integer.isSigned() ? "(" + text + ")" : "(" + text + "u)";
  }
  if (value.isFloat()) {
    llvm::SmallString<32> hex;
    const llvm::APFloat& number = value.getFloat();
    if (number.isNaN()) return std::nullopt;
    if (number.isInfinity()) return std::string(number.isNegative() ? "(-INFINITY)" : "INFINITY");
    char buffer[64];
    number.convertToHexString(buffer, 0, false, llvm::APFloat::rmNearestTiesToEven);
    const bool single = expr->getType()->isSpecificBuiltinType(clang::BuiltinType::Float);
    return "(" + std::string(buffer) + (single ? "f" : "") + ")";
  }
  return std::nullopt;
}

}  // namespace carbide::tile
