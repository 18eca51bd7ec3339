// The C++ text the emitter copies from a tile kernel: an expression as the user wrote it, with
// some of its subexpressions rewritten (a tile query becomes the device library's, a helper's
// parameter the caller's argument), and constants written out as values.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>

#include <functional>
#include <optional>
#include <string>

namespace carbide::tile {

// A statement's text as written (macros expanded to their use's range).
std::string text_of(const clang::Stmt* statement, const clang::ASTContext& context);

// `expr`'s text with each subexpression for which `rewrite` gives a text replaced by it; the
// children of a replaced subexpression are not visited.
using Rewrite = std::function<std::optional<std::string>(const clang::Stmt*)>;
std::string rewritten_text(const clang::Expr* expr, const clang::ASTContext& context, const Rewrite& rewrite);

// An integer, enumerator or floating-point constant expression's value as C++ text that means
// exactly that value (`42`, `0x1.8p+1f`); none when `expr` is not one.
std::optional<std::string> constant_text(const clang::Expr* expr, const clang::ASTContext& context);

}  // namespace carbide::tile
