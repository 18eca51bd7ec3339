#include "analysis/array_indexes.hpp"

#include "analysis/index_bounds.hpp"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>

#include <map>

namespace carbide::analysis {
namespace {

struct Subscripts : clang::RecursiveASTVisitor<Subscripts> {
  std::vector<const clang::ArraySubscriptExpr*> found;
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr* subscript) {
    if (!subscript->isTypeDependent() && !subscript->isValueDependent() && indexed_array(subscript) != nullptr)
      found.push_back(subscript);
    return true;
  }
};

bool inside(const IndexRange& range, std::uint64_t extent) { return range.low >= 0 && range.high < __int128(extent); }

// Whether the index is inside the array wherever `function` runs in `shapes`.
bool proven(const clang::ArraySubscriptExpr* subscript, const clang::FunctionDecl* function,
            const DeviceAnalysis& device) {
  const std::uint64_t extent = indexed_array(subscript)->getSize().getZExtValue();
  const std::vector<BlockShape>& shapes = device.calling_shapes(function);
  // A template's own text (its instances are the listed ones) and an unlisted instance: unproven.
  if (shapes.empty() || function->isTemplated()) return false;
  for (const BlockShape& shape : shapes) {
    const ThreadValues& values = device.thread_values(function, shape);
    if (!values.control().reachable(subscript)) continue;  // a constant-false branch of this instance
    const auto range = IndexBounds(values).range_at(subscript->getIdx(), subscript);
    if (!range || !inside(*range, extent)) return false;
  }
  return true;
}

}  // namespace

const clang::ConstantArrayType* indexed_array(const clang::ArraySubscriptExpr* subscript) {
  const clang::Expr* base = subscript->getBase()->IgnoreParenImpCasts();
  return llvm::dyn_cast_or_null<clang::ConstantArrayType>(base->getType()->getAsArrayTypeUnsafe());
}

std::optional<clang::CharSourceRange> checkable_array_operand(const clang::ArraySubscriptExpr* subscript,
                                                              const clang::ASTContext& context) {
  if (subscript->getBase() != subscript->getLHS()) return std::nullopt;
  const clang::CharSourceRange range = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(subscript->getBase()->getSourceRange()), context.getSourceManager(),
      context.getLangOpts());
  if (range.isInvalid()) return std::nullopt;
  return range;
}

std::vector<const clang::ArraySubscriptExpr*> unproven_array_subscripts(const DeviceAnalysis& device) {
  // By the text's place: an instance's subscript stands where its template's is written, and one
  // text is checked or not for all of them.
  struct Text {
    const clang::ArraySubscriptExpr* subscript = nullptr;
    bool unproven = false;
  };
  std::map<clang::SourceLocation, Text> texts;
  for (const clang::FunctionDecl* function : device.definitions()) {
    Subscripts subscripts;
    subscripts.TraverseStmt(function->getBody());
    for (const clang::ArraySubscriptExpr* subscript : subscripts.found) {
      Text& text = texts[subscript->getRBracketLoc()];
      if (text.subscript == nullptr) text.subscript = subscript;
      if (!proven(subscript, function, device)) text.unproven = true;
    }
  }
  std::vector<const clang::ArraySubscriptExpr*> unproven;
  for (const auto& [location, text] : texts)
    if (text.unproven) unproven.push_back(text.subscript);
  return unproven;
}

}  // namespace carbide::analysis
