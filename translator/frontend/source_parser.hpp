// Parses one user file as plain C++ with Clang (Clang cannot read CUDA 13's headers, and the
// user's file is ordinary C++ anyway); the AST it returns feeds the model and the rules.
#pragma once

#include <clang/Basic/Diagnostic.h>
#include <clang/Frontend/ASTUnit.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace carbide::frontend {

struct FrontendOptions {
  std::string build_dir;                // -p: where compile_commands.json lives; "" for none
  std::vector<std::string> extra_args;  // after --
  std::string include_dir;              // Carbide's runtime headers
  std::string resource_dir;             // Clang's builtin headers
  // The CUDA toolkit's headers (cuda_runtime.h, cublas_v2.h), searched after every other
  // directory as system headers; "" for none.
  std::string cuda_include_dir;
};

// A header that exists only in memory and is force-included before the user's code: the
// generated module API, which host code calls before any file was generated.
struct VirtualHeader {
  std::string path;
  std::string text;
};

// Counts what Clang reports, and forwards it to `next` (which may be null: a silent parse).
class CountingConsumer : public clang::DiagnosticConsumer {
 public:
  explicit CountingConsumer(clang::DiagnosticConsumer* next = nullptr) : next_(next) {}
  void BeginSourceFile(const clang::LangOptions& language, const clang::Preprocessor* pp) override;
  void EndSourceFile() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override;

  // Clang's errors, kept for outputs that list them beside the rules' findings (SARIF, where a
  // file that does not compile must not look clean).
  struct Error {
    clang::SourceLocation location;
    std::string message;
  };
  const std::vector<Error>& errors() const { return errors_; }

 private:
  clang::DiagnosticConsumer* next_;
  std::vector<Error> errors_;
};

// How much of the file to parse: everything, or the kernels' signatures: function bodies
// skipped, and Carbide's headers without their host half and their device functions
// (CARBIDE_SIGNATURES_ONLY), which is all the module API needs and several times faster.
enum class ParseDepth { Full, SignaturesOnly };

// Null when Clang could not even start (no such file, unreadable compile database). `api` (may
// be null) is mapped without a copy: it must outlive the returned AST.
std::unique_ptr<clang::ASTUnit> parse_source(const std::string& path, const FrontendOptions& options,
                                             const VirtualHeader* api,
                                             clang::DiagnosticConsumer& consumer,
                                             ParseDepth depth = ParseDepth::Full);

}  // namespace carbide::frontend
