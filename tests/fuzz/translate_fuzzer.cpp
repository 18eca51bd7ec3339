// libFuzzer target over the translation pipeline: each input is a source file that goes through
// parse, model, analyses and rules (analyze), then, when it holds kernels and no error, device
// code, the API header, the host stubs and the depfile, and its findings through the text and
// SARIF writers. nvcc is not run (an external process; its messages have their own unit test).
// Built only in the sanitized tree that scripts/fuzz.sh configures (ASan + UBSan).
//
// Names are fuzzed too: an input whose first 512 bytes hold a NUL is
//   FILE NAME \0 INCLUDE FOLDER NAME \0 SOURCE
// and the source is written under that name, beside an include folder of that name passed with
// -I (a source file never holds a NUL: analyze refuses binary data). Every #line the generators
// write must then read back as a real file's path: a name never becomes code.
#include "codegen/device_codegen.hpp"
#include "codegen/generated_text.hpp"
#include "codegen/host_codegen.hpp"
#include "diagnostics/sarif_log.hpp"
#include "pipeline/analysis.hpp"
#include "output/depfile.hpp"
#include "pipeline/translate.hpp"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

using namespace carbide;

struct FuzzSetup {
  std::string input_dir;
  std::string names_dir;  // emptied before every input in the names mode
  pipeline::PipelineOptions options;

  FuzzSetup() {
    llvm::SmallString<128> scratch;
    if (llvm::sys::fs::createUniqueDirectory("carbide-fuzz", scratch)) std::abort();
    // Inputs sit one folder down, beside a link to the samples' shared header, so the samples
    // (seeds) find "../common/sample_check.hpp" as they do in the tree.
    llvm::sys::fs::create_directory(scratch + "/input");
    llvm::sys::fs::create_link(CARBIDE_FUZZ_SAMPLES_DIR "/common", scratch + "/common");
    input_dir = (scratch + "/input").str();
    names_dir = (scratch + "/names").str();
    options.frontend.include_dir = CARBIDE_FUZZ_INCLUDE_DIR;
    options.frontend.resource_dir = CARBIDE_FUZZ_RESOURCE_DIR;
    options.nvcc.include_dir = CARBIDE_FUZZ_INCLUDE_DIR;
  }
};

void write_file(const std::string& path, llvm::StringRef content) {
  std::error_code error;
  llvm::raw_fd_ostream out(path, error);
  if (error) return;  // a name the file system refuses (too long, say): nothing to translate
  out << content;
}

// A name as one path component: the file system's separator and "." / ".." cannot be one.
std::string component(llvm::StringRef name) {
  std::string out = name.str();
  std::replace(out.begin(), out.end(), '/', '_');
  if (out.empty() || out == "." || out == "..") out = "_" + out;
  return out.substr(0, 200);
}

// The input's source, written where the names mode says; the path it was written to.
std::string place_input(FuzzSetup& setup, llvm::StringRef input) {
  const std::size_t first = input.take_front(512).find('\0');
  setup.options.frontend.extra_args.clear();
  if (first == llvm::StringRef::npos) {
    const std::string path = setup.input_dir + "/fuzz.cpp";
    write_file(path, input);
    return path;
  }
  llvm::sys::fs::remove_directories(setup.names_dir);
  llvm::sys::fs::create_directory(setup.names_dir);
  const auto [name, rest] = input.split('\0');
  auto [include_name, source] = rest.split('\0');
  const std::string include_dir = setup.names_dir + "/" + component(include_name);
  llvm::sys::fs::create_directory(include_dir);
  write_file(include_dir + "/fuzz_header.hpp", "#pragma once\nconstexpr int kFuzzHeader = 1;\n");
  setup.options.frontend.extra_args = {"-I" + include_dir};
  const std::string path = setup.names_dir + "/" + component(name);
  write_file(path, source);
  return path;
}

// Every #line of `text` reads back as a file that exists, or as the generated file's own name:
// a name spelled into a directive can neither end it nor start another line.
void require_line_directives_name_files(const std::string& text, const std::string& generated_name) {
  llvm::StringRef rest(text);
  while (!rest.empty()) {
    auto [line, after] = rest.split('\n');
    rest = after;
    if (!line.consume_front("#line ")) continue;
    unsigned number = 0;
    if (line.consumeInteger(10, number) || !line.consume_front(" ")) std::abort();
    const auto file = codegen::parse_c_string_literal(line);
    if (!file || (*file != generated_name && !llvm::sys::fs::exists(*file))) std::abort();
  }
}

// What translate_file does after analysis, up to nvcc: the generators must not fail on any
// program the rules accept.
void generate(const pipeline::Analysis& analysis) {
  const model::Program& program = analysis.program;
  clang::ASTContext& context = analysis.ast->getASTContext();
  const std::string cu_name = program.stem + ".carbide.cu";
  require_line_directives_name_files(
      codegen::generate_device_source(program, context, analysis.ast->getPreprocessor(), cu_name,
                                      analysis.proven, *analysis.tiles),
      cu_name);
  (void)codegen::exact_blocks(program, *analysis.tiles);
  std::string header = codegen::generate_api_header(program);
  const std::string tag = codegen::tag_api_header(header);
  const std::string stubs_name = program.stem + ".carbide.cpp";
  require_line_directives_name_files(
      codegen::generate_host_stubs(program, {".version 8.0\n", "PTX for sm_90"},
                                   program.stem + ".carbide.hpp", tag, context,
                                   analysis.ast->getPreprocessor(), analysis.proven, *analysis.tiles),
      stubs_name);
  (void)output::make_depfile({stubs_name}, context.getSourceManager(), {analysis.api_header->path});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static FuzzSetup setup;
  const std::string path =
      place_input(setup, llvm::StringRef(reinterpret_cast<const char*>(data), size));
  std::string text;
  llvm::raw_string_ostream diagnostics(text);
  auto analysis = pipeline::analyze(path, setup.options, diagnostics);
  if (!analysis) return 0;
  analysis->engine->print_text(diagnostics, /*colors=*/false);
  diag::SarifLog sarif(pipeline::rule_descriptors(), setup.options.rule_pages_dir);
  sarif.add(analysis->engine->findings(), analysis->ast->getSourceManager());
  (void)sarif.str();
  if (!analysis->failed() && analysis->program.kernel_count() > 0) generate(*analysis);
  return 0;
}
