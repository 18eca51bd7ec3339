#include "pipeline/analysis.hpp"

#include "analysis/array_indexes.hpp"
#include "analysis/index_width.hpp"
#include "analysis/proven_span_reads.hpp"
#include "analysis/proven_subscripts.hpp"
#include "codegen/host_codegen.hpp"
#include "model/kernel_instances.hpp"
#include "model/model_builder.hpp"
#include "rules/rule.hpp"
#include "support/file_names.hpp"

#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

namespace carbide::pipeline {
namespace {

// "" when the file can be parsed, else why not.
std::string unreadable_reason(const std::string& path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer) return "cannot read the file: " + buffer.getError().message();
  const llvm::StringRef text = (*buffer)->getBuffer();
  if (text.take_front(1 << 16).contains('\0'))
    return "this is not a C++ source file: it contains binary data";
  return "";
}

// A name of Carbide's own: clang turns `-include` into an `#include "..."` line without
// escaping it, so the user's file name must not reach it.
constexpr const char* kVirtualApiPath = "/carbide-virtual-api/module.carbide.hpp";

// The module API that the kernels of a parsed file declare.
std::string api_of(clang::ASTContext& context) {
  return codegen::generate_api_header(model::build_program(context));
}

// The whole parse, with what Clang reports on it kept as text until the API it was parsed with
// is known to be the file's own, so that a second try does not print it twice.
struct FullParse {
  std::unique_ptr<std::string> printed = std::make_unique<std::string>();
  std::unique_ptr<llvm::raw_string_ostream> stream;
  std::unique_ptr<clang::TextDiagnosticPrinter> printer;
  std::unique_ptr<frontend::CountingConsumer> counted;
  std::unique_ptr<clang::ASTUnit> ast;  // last: destroyed before the consumers it reports to
};

FullParse parse_with_api(const std::string& path, const PipelineOptions& options,
                         const frontend::VirtualHeader& api) {
  FullParse full;
  full.stream = std::make_unique<llvm::raw_string_ostream>(*full.printed);
  full.stream->enable_colors(options.colors);
  // Clang's printers share ownership of their options.
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> printer_options(new clang::DiagnosticOptions);
  printer_options->ShowColors = options.colors;
  full.printer = std::make_unique<clang::TextDiagnosticPrinter>(*full.stream, printer_options.get());
  full.counted = std::make_unique<frontend::CountingConsumer>(full.printer.get());
  full.ast = frontend::parse_source(path, options.frontend, &api, *full.counted);
  return full;
}

}  // namespace

void report_file_error(llvm::raw_ostream& out, const std::string& path, const std::string& message,
                       bool is_note) {
  out << support::printable_name(path) << ": " << (is_note ? "note: " : "error: ") << message << "\n";
}

std::optional<Analysis> analyze(const std::string& path, const PipelineOptions& options,
                                llvm::raw_ostream& diagnostics) {
  if (std::string why = support::unusable_source_path(path); !why.empty()) {
    report_file_error(diagnostics, path, "this file is not checked or translated: " + why);
    return std::nullopt;
  }
  if (std::string why = unreadable_reason(path); !why.empty()) {
    report_file_error(diagnostics, path, why);
    return std::nullopt;
  }
  // First pass, silent, without function bodies and without the host half of Carbide's
  // headers: the kernels' signatures are all the module API needs. Host code that calls the API
  // would not compile yet, which is why this pass prints nothing.
  const auto could_not_parse = [&] {
    report_file_error(diagnostics, path, "clang could not parse this file");
    return std::nullopt;
  };
  frontend::CountingConsumer silent;
  auto signatures = frontend::parse_source(path, options.frontend, nullptr, silent,
                                           frontend::ParseDepth::SignaturesOnly);
  if (!signatures) return could_not_parse();
  Analysis analysis;
  analysis.api_header = std::make_unique<const frontend::VirtualHeader>(
      frontend::VirtualHeader{kVirtualApiPath, api_of(signatures->getASTContext())});
  signatures.reset();
  // Second pass: everything, with the module API declared.
  FullParse full = parse_with_api(path, options, *analysis.api_header);
  if (!full.ast) return could_not_parse();
  // A kernel parameter whose type only the host half of the headers declares was misread by the
  // first pass. The whole parse declares the API as the kernels really are; parse again with it.
  if (std::string declared = api_of(full.ast->getASTContext()); declared != analysis.api_header->text) {
    full.ast.reset();
    analysis.api_header = std::make_unique<const frontend::VirtualHeader>(
        frontend::VirtualHeader{kVirtualApiPath, std::move(declared)});
    full = parse_with_api(path, options, *analysis.api_header);
    if (!full.ast) return could_not_parse();
  }
  analysis.ast = std::move(full.ast);
  model::instantiate_launched_kernels(*analysis.ast);
  diagnostics << *full.printed;
  analysis.clang_errors = full.counted->getNumErrors() > 0;
  for (const frontend::CountingConsumer::Error& error : full.counted->errors())
    analysis.compile_errors.push_back(
        {"clang-diagnostic-error", diag::Severity::Error, error.location, {}, error.message, {}, {}});
  clang::ASTContext& context = analysis.ast->getASTContext();
  analysis.program = model::build_program(context);
  analysis.engine = std::make_unique<diag::DiagnosticsEngine>(options.rules);
  analysis.engine->attach(context.getSourceManager(), context.getLangOpts());
  if (!analysis.clang_errors) {
    const carbide::analysis::DeviceAnalysis device(context, analysis.program);
    analysis.tiles = std::make_unique<const tile::TilePrograms>(context, analysis.program,
                                                                 tile::tile_target(options.nvcc.archs));
    rules::run_all_rules({context, analysis.program, device, *analysis.tiles, *analysis.engine});
    analysis.proven.in_range = carbide::analysis::proven_shared_indexes(device);
    for (const clang::CXXOperatorCallExpr* read : carbide::analysis::proven_span_reads(analysis.program))
      analysis.proven.in_range.push_back(read->getArg(1));
    analysis.proven.checked_arrays = carbide::analysis::unproven_array_subscripts(device);
    analysis.proven.narrow_witnesses = carbide::analysis::narrow_witness_sources(context, analysis.program);
    for (const model::Module& module : analysis.program.modules)
      for (const model::Kernel& kernel : module.kernels) {
        if (kernel.is_tile) continue;
        if (!device.collective_sites().in(kernel.decl).empty())
          analysis.proven.synchronizing.insert(kernel.decl->getCanonicalDecl());
        analysis.proven.kernel_claims[kernel.decl] = device.view_claims().claims_of(kernel.decl);
      }
    const clang::SourceManager& sources = context.getSourceManager();
    for (const carbide::analysis::UnsafeBlock& block : device.unsafe_blocks()) {
      const clang::PresumedLoc at = sources.getPresumedLoc(block.location);
      analysis.unsafe_sites.push_back(
          {std::string(at.getFilename()) + ":" + std::to_string(at.getLine()) + ":" +
               std::to_string(at.getColumn()),
           block.function->getQualifiedNameAsString(), block.reason});
    }
  }
  return analysis;
}

}  // namespace carbide::pipeline
