// Small kernels parsed with Carbide's headers, for the analyses' unit tests: the function to
// analyse, the calls in it, and an expression's source text to name what a fact is about.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/Tooling.h>

#include <memory>
#include <string>
#include <vector>

namespace carbide::testing {

inline std::unique_ptr<clang::ASTUnit> parse(const std::string& code) {
  return clang::tooling::buildASTFromCodeWithArgs(
      "#include <carbide/carbide.hpp>\n" + code,
      {"-std=c++17", "-I" CARBIDE_TEST_INCLUDE_DIR, "-resource-dir=" CARBIDE_TEST_RESOURCE_DIR},
      "input.cpp");
}

inline const clang::FunctionDecl* function_named(clang::ASTContext& context, const std::string& name) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    std::string name;
    const clang::FunctionDecl* found = nullptr;
    bool VisitFunctionDecl(clang::FunctionDecl* function) {
      if (function->hasBody() && function->getNameAsString() == name) found = function;
      return found == nullptr;
    }
  } finder;
  finder.name = name;
  finder.TraverseDecl(context.getTranslationUnitDecl());
  return finder.found;
}

// The first variable (a local or a parameter) of `function` named `name`.
inline const clang::VarDecl* variable_named(const clang::FunctionDecl* function, const std::string& name) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    std::string name;
    const clang::VarDecl* found = nullptr;
    bool VisitVarDecl(clang::VarDecl* var) {
      if (found == nullptr && var->getName() == name) found = var;
      return true;
    }
  } finder;
  finder.name = name;
  finder.TraverseDecl(const_cast<clang::FunctionDecl*>(function));
  return finder.found;
}

// The calls in `function` of a function named `callee` (unqualified), in source order.
inline std::vector<const clang::CallExpr*> calls_of(const clang::FunctionDecl* function,
                                                    const std::string& callee) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    std::string callee;
    std::vector<const clang::CallExpr*> found;
    bool VisitCallExpr(clang::CallExpr* call) {
      if (const clang::FunctionDecl* target = call->getDirectCallee())
        if (target->getNameAsString() == callee) found.push_back(call);
      return true;
    }
  } finder;
  finder.callee = callee;
  finder.TraverseStmt(function->getBody());
  return finder.found;
}

inline std::string text(const clang::ASTContext& context, const clang::Stmt* statement) {
  if (statement == nullptr) return "";
  return clang::Lexer::getSourceText(
             clang::CharSourceRange::getTokenRange(statement->getSourceRange()),
             context.getSourceManager(), context.getLangOpts())
      .str();
}

// The first expression in `function` whose source text is `spelled`.
inline const clang::Expr* expr_spelled(clang::ASTContext& context, const clang::FunctionDecl* function,
                                       const std::string& spelled) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    clang::ASTContext* context;
    std::string spelled;
    const clang::Expr* found = nullptr;
    bool VisitExpr(clang::Expr* expr) {
      if (found == nullptr && text(*context, expr) == spelled) found = expr;
      return true;
    }
  } finder;
  finder.context = &context;
  finder.spelled = spelled;
  finder.TraverseStmt(function->getBody());
  return finder.found;
}

}  // namespace carbide::testing
