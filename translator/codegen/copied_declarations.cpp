#include "codegen/copied_declarations.hpp"

#include "codegen/generated_text.hpp"
#include "model/model_builder.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <set>

namespace carbide::codegen {
namespace {

struct NamespacePath {
  std::vector<std::string> names;  // "" for an anonymous namespace
  std::vector<bool> inline_flags;
  bool operator==(const NamespacePath&) const = default;
};

NamespacePath namespace_path(const clang::Decl* decl) {
  NamespacePath path;
  for (const clang::NamespaceDecl* ns : model::enclosing_namespaces(decl)) {
    path.names.push_back(ns->getNameAsString());
    path.inline_flags.push_back(ns->isInline());
  }
  return path;
}

// The last declaration of `decl`'s group: `constexpr unsigned a = 1, b = 2;` declares a and b
// with one beginning, and its text is emitted once, whole.
const clang::Decl* last_of_group(const clang::Decl* decl) {
  const clang::Decl* last = decl;
  for (const clang::Decl* sibling : decl->getDeclContext()->decls())  // in source order
    if (sibling->getBeginLoc() == decl->getBeginLoc() && llvm::isa<clang::VarDecl>(sibling))
      last = sibling;
  return last;
}

// The declaration's (group's) text with the trailing semicolon that ends a class or variable.
clang::CharSourceRange unit_range(const clang::Decl* decl, const clang::SourceManager& sources,
                                  const clang::LangOptions& language) {
  const clang::SourceLocation begin = sources.getExpansionLoc(decl->getBeginLoc());
  clang::SourceLocation end = clang::Lexer::getLocForEndOfToken(
      sources.getExpansionLoc(last_of_group(decl)->getEndLoc()), 0, sources, language);
  const char* text = sources.getCharacterData(end);
  std::size_t skip = 0;
  while (text[skip] == ' ' || text[skip] == '\t') ++skip;
  if (text[skip] == ';') end = end.getLocWithOffset(int(skip) + 1);
  return clang::CharSourceRange::getCharRange(begin, end);
}

}  // namespace

std::string copy_declarations(const std::vector<const clang::Decl*>& decls, const clang::Rewriter& rewriter,
                              const std::string& main_path) {
  const clang::SourceManager& sources = rewriter.getSourceMgr();
  std::string out;
  NamespacePath open;
  std::set<clang::SourceLocation> emitted;  // group beginnings
  for (const clang::Decl* decl : decls) {
    if (!emitted.insert(sources.getExpansionLoc(decl->getBeginLoc())).second) continue;
    const NamespacePath path = namespace_path(decl);
    if (path != open) {
      out += "\n" + close_namespaces(open.names) + open_namespaces(path.names, path.inline_flags);
      open = path;
    }
    const clang::CharSourceRange range = unit_range(decl, sources, rewriter.getLangOpts());
    const unsigned line = sources.getExpansionLineNumber(range.getBegin());
    const unsigned column = sources.getExpansionColumnNumber(range.getBegin());
    const std::string file =
        sources.isInMainFile(range.getBegin()) ? main_path : sources.getFilename(range.getBegin()).str();
    out += line_directive(line, file) + std::string(column - 1, ' ') +
           rewriter.getRewrittenText(range) + "\n";
  }
  out += close_namespaces(open.names);
  return out;
}

}  // namespace carbide::codegen
