#include "frontend/source_parser.hpp"

#include <clang/Frontend/CompilerInstance.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/StringRef.h>

namespace carbide::frontend {

void CountingConsumer::BeginSourceFile(const clang::LangOptions& language,
                                       const clang::Preprocessor* pp) {
  if (next_) next_->BeginSourceFile(language, pp);
}

void CountingConsumer::EndSourceFile() {
  if (next_) next_->EndSourceFile();
}

void CountingConsumer::HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                                        const clang::Diagnostic& info) {
  clang::DiagnosticConsumer::HandleDiagnostic(level, info);
  if (level >= clang::DiagnosticsEngine::Error) {
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    errors_.push_back({info.getLocation(), message.str().str()});
  }
  if (next_) next_->HandleDiagnostic(level, info);
}

namespace {

bool has_std_flag(const std::vector<std::string>& args) {
  for (const std::string& arg : args)
    if (llvm::StringRef(arg).starts_with("-std=")) return true;
  return false;
}

// A build's compile command may force-include the generated API header from an earlier run;
// the in-memory one replaces it, so a changed signature never meets a stale declaration.
clang::tooling::CommandLineArguments drop_generated_includes(
    const clang::tooling::CommandLineArguments& args) {
  clang::tooling::CommandLineArguments kept;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-include" && i + 1 < args.size() &&
        llvm::StringRef(args[i + 1]).ends_with(".carbide.hpp")) {
      ++i;
      continue;
    }
    kept.push_back(args[i]);
  }
  return kept;
}

// ClangTool's own AST builder, with the choice to skip function bodies.
class AstBuilder : public clang::tooling::ToolAction {
 public:
  explicit AstBuilder(ParseDepth depth) : depth_(depth) {}
  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation,
                     clang::FileManager* files,
                     std::shared_ptr<clang::PCHContainerOperations> pch,
                     clang::DiagnosticConsumer* consumer) override {
    invocation->getFrontendOpts().SkipFunctionBodies = depth_ == ParseDepth::SignaturesOnly;
    ast = clang::ASTUnit::LoadFromCompilerInvocation(
        invocation, std::move(pch),
        clang::CompilerInstance::createDiagnostics(&invocation->getDiagnosticOpts(), consumer,
                                                   /*ShouldOwnClient=*/false),
        files);
    return ast != nullptr;
  }
  std::unique_ptr<clang::ASTUnit> ast;

 private:
  ParseDepth depth_;
};

std::unique_ptr<clang::tooling::CompilationDatabase> database(const FrontendOptions& options,
                                                              std::string& error) {
  if (!options.build_dir.empty())
  {
    auto loaded = clang::tooling::CompilationDatabase::loadFromDirectory(options.build_dir, error);
    // A file the build does not list borrows the flags of its nearest neighbour.
    return loaded ? clang::tooling::inferMissingCompileCommands(std::move(loaded)) : nullptr;
  }
  std::vector<std::string> args = options.extra_args;
  if (!has_std_flag(args)) args.insert(args.begin(), "-std=c++17");
  return std::make_unique<clang::tooling::FixedCompilationDatabase>(".", args);
}

}  // namespace

std::unique_ptr<clang::ASTUnit> parse_source(const std::string& path, const FrontendOptions& options,
                                             const VirtualHeader* api,
                                             clang::DiagnosticConsumer& consumer,
                                             ParseDepth depth) {
  std::string error;
  auto db = database(options, error);
  if (!db) {
    clang::DiagnosticsEngine engine(new clang::DiagnosticIDs, new clang::DiagnosticOptions,
                                    &consumer, /*ShouldOwnClient=*/false);
    engine.Report(engine.getCustomDiagID(clang::DiagnosticsEngine::Fatal,
                                         "cannot read the compilation database in '%0': %1"))
        << options.build_dir << error;
    return nullptr;
  }
  clang::tooling::ClangTool tool(*db, {path});
  tool.setDiagnosticConsumer(&consumer);
  tool.appendArgumentsAdjuster(
      [](const clang::tooling::CommandLineArguments& args, llvm::StringRef) {
        return drop_generated_includes(args);
      });
  std::vector<std::string> extra = {"-xc++", "-I" + options.include_dir,
                                    "-resource-dir=" + options.resource_dir};
  if (!options.cuda_include_dir.empty()) {
    extra.push_back("-idirafter");
    extra.push_back(options.cuda_include_dir);
  }
  if (!options.build_dir.empty())
    extra.insert(extra.end(), options.extra_args.begin(), options.extra_args.end());
  if (depth == ParseDepth::SignaturesOnly) extra.push_back("-DCARBIDE_SIGNATURES_ONLY");
  if (api) {
    tool.mapVirtualFile(api->path, api->text);
    extra.push_back("-include");
    extra.push_back(api->path);
  }
  // After the driver name, before the user's flags: the user's -std and -I still win.
  tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
      extra, clang::tooling::ArgumentInsertPosition::BEGIN));
  AstBuilder builder(depth);
  tool.run(&builder);
  return std::move(builder.ast);
}

}  // namespace carbide::frontend
