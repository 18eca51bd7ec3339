#include "codegen/copied_macros.hpp"

#include "codegen/generated_text.hpp"

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/MacroInfo.h>

#include <map>
#include <set>

namespace carbide::codegen {
namespace {

class MacroCollector {
 public:
  explicit MacroCollector(clang::Preprocessor& preprocessor)
      : preprocessor_(preprocessor), sources_(preprocessor.getSourceManager()) {}

  // Every identifier of the text from `begin` to `end` (both in one file), lexed raw
  // (directives and all), as a use at its place.
  void scan(clang::SourceLocation begin, clang::SourceLocation end) {
    const clang::FileID file = sources_.getFileID(begin);
    bool invalid = false;
    const llvm::StringRef buffer = sources_.getBufferData(file, &invalid);
    if (invalid) return;
    const unsigned end_offset = sources_.getFileOffset(end);
    clang::Lexer lexer(sources_.getLocForStartOfFile(file), preprocessor_.getLangOpts(), buffer.begin(),
                       buffer.begin() + sources_.getFileOffset(begin), buffer.end());
    clang::Token token;
    for (bool at_end = false; !at_end;) {
      at_end = lexer.LexFromRawLexer(token);
      if (sources_.getFileOffset(token.getLocation()) >= end_offset) break;
      if (token.is(clang::tok::raw_identifier)) use(token.getRawIdentifier(), token.getLocation());
    }
  }

  // The definitions found, in definition order.
  std::string text(const std::string& main_path) const {
    std::string out;
    for (const auto& [location, definition] : found_) {
      const clang::PresumedLoc at = sources_.getPresumedLoc(location);
      const std::string file = sources_.isInMainFile(location) ? main_path : std::string(at.getFilename());
      if (!sources_.isWrittenInCommandLineFile(location)) out += line_directive(at.getLine(), file);
      out += "#define " + definition + "\n";
    }
    return out;
  }

 private:
  struct Before {
    const clang::SourceManager* sources;
    bool operator()(clang::SourceLocation a, clang::SourceLocation b) const {
      return sources->isBeforeInTranslationUnit(a, b);
    }
  };

  void use(llvm::StringRef name, clang::SourceLocation at) {
    const clang::IdentifierTable& identifiers = preprocessor_.getIdentifierTable();
    const auto found = identifiers.find(name);
    if (found == identifiers.end() || !found->getValue()->hasMacroDefinition()) return;
    const clang::IdentifierInfo* identifier = found->getValue();
    const clang::MacroInfo* macro = preprocessor_.getMacroDefinitionAtLoc(identifier, at).getMacroInfo();
    if (macro == nullptr || !seen_.insert(macro).second || !is_users(name, macro)) return;
    const clang::SourceLocation begin = macro->getDefinitionLoc();
    const clang::CharSourceRange range =
        clang::CharSourceRange::getTokenRange(begin, macro->getDefinitionEndLoc());
    found_.emplace(begin, clang::Lexer::getSourceText(range, sources_, preprocessor_.getLangOpts()).str());
    // The macros its body names, as they stand where it is defined.
    for (const clang::Token& token : macro->tokens())
      if (const clang::IdentifierInfo* inner = token.getIdentifierInfo())
        use(inner->getName(), macro->getDefinitionEndLoc());
  }

  bool is_users(llvm::StringRef name, const clang::MacroInfo* macro) const {
    if (macro->isBuiltinMacro() || name.starts_with("CARBIDE_")) return false;
    const clang::SourceLocation at = macro->getDefinitionLoc();
    if (at.isInvalid() || sources_.isInSystemHeader(at)) return false;
    // The predefines buffer holds Clang's built-in macros and the command line's -D, told apart
    // by its line markers.
    if (sources_.isWrittenInBuiltinFile(at)) return llvm::StringRef(sources_.getPresumedLoc(at).getFilename()) == "<command line>";
    return true;
  }

  clang::Preprocessor& preprocessor_;
  const clang::SourceManager& sources_;
  std::set<const clang::MacroInfo*> seen_;
  std::map<clang::SourceLocation, std::string, Before> found_{Before{&sources_}};
};

}  // namespace

std::string copy_macros(const std::vector<const clang::Decl*>& decls, clang::Preprocessor& preprocessor,
                        const std::string& main_path) {
  MacroCollector collector(preprocessor);
  const clang::SourceManager& sources = preprocessor.getSourceManager();
  for (const clang::Decl* decl : decls) {
    const clang::SourceLocation begin = sources.getExpansionLoc(decl->getBeginLoc());
    const clang::SourceLocation end = clang::Lexer::getLocForEndOfToken(
        sources.getExpansionLoc(decl->getEndLoc()), 0, sources, preprocessor.getLangOpts());
    if (end.isInvalid() || sources.getFileID(begin) != sources.getFileID(end)) continue;
    collector.scan(begin, end);
  }
  return collector.text(main_path);
}

}  // namespace carbide::codegen
