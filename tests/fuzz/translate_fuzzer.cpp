// libFuzzer target over the translation pipeline: each input is a source file that goes through
// parse, model, analyses and rules (analyze), then, when it holds kernels and no error, device
// code, the API header and the host stubs, and its findings through the text and SARIF writers.
// nvcc is not run (an external process; its messages have their own unit test). Built only in the
// sanitized tree that scripts/fuzz.sh configures (ASan + UBSan).
#include "codegen/device_codegen.hpp"
#include "codegen/host_codegen.hpp"
#include "diagnostics/sarif_log.hpp"
#include "pipeline/analysis.hpp"
#include "pipeline/translate.hpp"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

using namespace carbide;

struct FuzzSetup {
  std::string input_path;  // rewritten for every input
  pipeline::PipelineOptions options;

  FuzzSetup() {
    llvm::SmallString<128> scratch;
    if (llvm::sys::fs::createUniqueDirectory("carbide-fuzz", scratch)) std::abort();
    // Inputs sit one folder down, beside a link to the samples' shared header, so the samples
    // (seeds) find "../common/sample_check.hpp" as they do in the tree.
    llvm::sys::fs::create_directory(scratch + "/input");
    llvm::sys::fs::create_link(CARBIDE_FUZZ_SAMPLES_DIR "/common", scratch + "/common");
    input_path = (scratch + "/input/fuzz.cpp").str();
    options.frontend.include_dir = CARBIDE_FUZZ_INCLUDE_DIR;
    options.frontend.resource_dir = CARBIDE_FUZZ_RESOURCE_DIR;
    options.nvcc.include_dir = CARBIDE_FUZZ_INCLUDE_DIR;
  }
};

void write_input(const std::string& path, const std::uint8_t* data, std::size_t size) {
  std::error_code error;
  llvm::raw_fd_ostream out(path, error);
  if (error) std::abort();
  out.write(reinterpret_cast<const char*>(data), size);
}

// What translate_file does after analysis, up to nvcc: the generators must not fail on any
// program the rules accept.
void generate(const pipeline::Analysis& analysis) {
  const model::Program& program = analysis.program;
  clang::ASTContext& context = analysis.ast->getASTContext();
  codegen::generate_device_source(program, context, program.stem + ".carbide.cu",
                                  analysis.proven, *analysis.tiles);
  (void)codegen::exact_blocks(program, *analysis.tiles);
  std::string header = codegen::generate_api_header(program);
  const std::string tag = codegen::tag_api_header(header);
  codegen::generate_host_stubs(program, {".version 8.0\n", "PTX for sm_90"},
                               program.stem + ".carbide.hpp", tag, context, *analysis.tiles);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static FuzzSetup setup;
  write_input(setup.input_path, data, size);
  std::string text;
  llvm::raw_string_ostream diagnostics(text);
  auto analysis = pipeline::analyze(setup.input_path, setup.options, diagnostics);
  if (!analysis) return 0;
  analysis->engine->print_text(diagnostics, /*colors=*/false);
  diag::SarifLog sarif(pipeline::rule_descriptors(), setup.options.rule_pages_dir);
  sarif.add(analysis->engine->findings(), analysis->ast->getSourceManager());
  (void)sarif.str();
  if (!analysis->failed() && analysis->program.kernel_count() > 0) generate(*analysis);
  return 0;
}
