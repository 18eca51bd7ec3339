#include "pipeline/translate.hpp"

#include "codegen/device_codegen.hpp"
#include "codegen/generated_text.hpp"
#include "codegen/host_codegen.hpp"
#include "output/atomic_output.hpp"
#include "output/depfile.hpp"
#include "output/manifest.hpp"
#include "rules/rule.hpp"
#include "support/file_names.hpp"

#include <clang/Basic/FileManager.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

namespace carbide::pipeline {
namespace {

constexpr const char* kDeviceCompileRule = "carbide-device-compile";

clang::SourceLocation first_kernel(const model::Program& program) {
  const model::Module& module = program.modules.front();
  return (module.kernels.empty() ? module.kernel_templates : module.kernels).front().decl->getLocation();
}

// nvcc names the user's file through #line; its messages become findings at those lines.
void report_nvcc_messages(const nvcc::NvccResult& result, const Analysis& analysis,
                          const std::string& cu_name, const codegen::FilePrefixMap& paths) {
  clang::SourceManager& sources = analysis.ast->getSourceManager();
  const clang::SourceLocation fallback = first_kernel(analysis.program);
  for (const nvcc::NvccMessage& message : result.messages) {
    clang::SourceLocation at = fallback;
    std::string text = "nvcc: " + message.text;
    if (auto file = sources.getFileManager().getOptionalFileRef(paths.unmap(message.file));
        file && message.file != cu_name) {
      at = sources.translateFileLineCol(*file, message.line, 1);
      bool invalid = false;
      const char* line = sources.getCharacterData(at, &invalid);
      unsigned indent = 0;
      while (!invalid && (line[indent] == ' ' || line[indent] == '\t')) ++indent;
      at = at.getLocWithOffset(int(indent));
    } else {
      text += " (in the generated entry point, line " + std::to_string(message.line) + " of " +
              cu_name + ")";
    }
    analysis.engine->report(rules::finding(
        kDeviceCompileRule, message.is_error ? diag::Severity::Error : diag::Severity::Warning,
        at, text));
  }
  if (!result.ok && !result.failure.empty())
    analysis.engine->report(rules::finding(kDeviceCompileRule, diag::Severity::Error, fallback,
                                           "the kernels of this file could not be compiled for "
                                           "the device: " + llvm::StringRef(result.failure).trim().str()));
}

// What the stubs say of a module translated with --cpu-only; the runtime refuses to load its
// empty image on a GPU, naming the option.
constexpr const char* kNoGpuImage =
    "No GPU image: translated with --cpu-only, the module runs on CPU contexts alone";

// The image of a --cpu-only translation: none, and nvcc never runs.
nvcc::NvccResult cpu_only_image() {
  nvcc::NvccResult result;
  result.ok = true;
  result.cache_key = "cpu-only";
  return result;
}

bool finish(const Analysis& analysis, const PipelineOptions& options, llvm::raw_ostream& diagnostics) {
  analysis.engine->print_text(diagnostics, options.colors);
  return !analysis.failed();
}

}  // namespace

std::vector<diag::RuleDescriptor> rule_descriptors() {
  std::vector<diag::RuleDescriptor> descriptors;
  for (const auto& rule : rules::make_all_rules())
    descriptors.push_back({std::string(rule->name()), std::string(rule->summary())});
  descriptors.push_back({kDeviceCompileRule, "what nvcc reports on the generated device code, at "
                                             "the user's line"});
  return descriptors;
}

Outcome check_file(const std::string& path, const PipelineOptions& options,
                   const CheckOutputs& outputs) {
  auto analysis = analyze(path, options, llvm::errs());
  if (!analysis) return Outcome::Failed;
  const clang::SourceManager& sources = analysis->ast->getSourceManager();
  if (outputs.sarif) {
    outputs.sarif->add(analysis->compile_errors, sources);
    outputs.sarif->add(analysis->engine->findings(), sources);
  }
  if (outputs.text) analysis->engine->print_text(llvm::errs(), options.colors);
  if (outputs.fixes) outputs.fixes->add(analysis->engine->findings(), sources);
  if (outputs.report_unsafe)
    for (const UnsafeSite& site : analysis->unsafe_sites)
      llvm::outs() << site.where << ": CARBIDE_UNSAFE in " << site.function << ": "
                   << (site.reason.empty() ? "(no reason given)" : "\"" + site.reason + "\"")
                   << "\n";
  if (analysis->failed()) return Outcome::Failed;
  return analysis->program.kernel_count() == 0 ? Outcome::Skipped : Outcome::Translated;
}

Outcome translate_file(const std::string& path, const std::string& out_dir,
                       const PipelineOptions& options, llvm::raw_ostream& diagnostics) {
  auto analysis = analyze(path, options, diagnostics);
  if (!analysis) return Outcome::Failed;
  if (analysis->failed()) {
    finish(*analysis, options, diagnostics);
    return Outcome::Failed;
  }
  const model::Program& program = analysis->program;
  if (program.kernel_count() == 0) {
    finish(*analysis, options, diagnostics);
    report_file_error(diagnostics, path, "no CARBIDE_KERNEL or CARBIDE_TILE_KERNEL in this file; nothing was written", true);
    return Outcome::Skipped;
  }
  llvm::SmallString<256> out(out_dir);
  llvm::sys::fs::make_absolute(out);
  llvm::sys::path::remove_dots(out, true);
  const std::string stem = program.stem;
  const std::string base = out.str().str() + "/" + stem;
  const std::string cu_name = stem + ".carbide.cu";
  const std::string header_name = stem + ".carbide.hpp";

  const codegen::FilePrefixMap& paths = options.file_prefix_map;
  const std::string cuda = paths.map_line_directives(codegen::generate_device_source(
      program, analysis->ast->getASTContext(), analysis->ast->getPreprocessor(), cu_name, analysis->proven, *analysis->tiles,
      options.device_checks));
  const nvcc::NvccResult compiled =
      options.cpu_only ? cpu_only_image()
                       : nvcc::compile(options.nvcc, cuda, codegen::exact_blocks(program, *analysis->tiles),
                                       output::read_previous_image(out.str().str(), stem));
  report_nvcc_messages(compiled, *analysis, cu_name, paths);
  if (!finish(*analysis, options, diagnostics)) return Outcome::Failed;
  if (!compiled.ok) {
    // No finding said so (filtered out by --checks, or nvcc gave no message): the failure
    // still says why it failed.
    const bool shown = diag::GlobList(options.rules.checks).matches(kDeviceCompileRule);
    report_file_error(diagnostics, path,
                      std::string("nvcc could not compile the device code, so nothing was written") +
                          (shown ? "; it printed nothing Carbide could place (run nvcc on the "
                                   "generated .cu by hand to see it)"
                                 : "; --checks turns carbide-device-compile off, which would say where"));
    return Outcome::Failed;
  }

  const bool fat = !compiled.fatbin.empty();
  codegen::ModuleImage image;
  image.bytes = fat ? compiled.fatbin : compiled.ptx;
  image.description = options.cpu_only ? std::string(kNoGpuImage)
                      : (fat ? "Fatbin for " + codegen::join(options.nvcc.archs, ", ")
                             : "PTX for " + options.nvcc.archs.front()) +
                            ", from nvcc " + compiled.version;

  std::string api_header = codegen::generate_api_header(program);
  const std::string api_tag = codegen::tag_api_header(api_header);
  std::vector<output::OutputFile> files = {
      {base + ".carbide.cu", cuda},
      {base + ".carbide.hpp", api_header},
      {base + ".carbide.cpp",
       paths.map_line_directives(codegen::generate_host_stubs(
           program, image, header_name, api_tag, analysis->ast->getASTContext(),
           analysis->ast->getPreprocessor(), analysis->proven, *analysis->tiles))},
  };
  if (!options.cpu_only) files.insert(files.begin() + 1, {base + ".ptx", compiled.ptx});
  if (fat) files.push_back({base + ".fatbin", compiled.fatbin});
  std::vector<std::string> targets;
  for (const auto& file : files) targets.push_back(file.path);
  const output::Depfile depfile =
      output::make_depfile(targets, analysis->ast->getSourceManager(), {analysis->api_header->path});
  if (!depfile.unnameable.empty()) {
    report_file_error(diagnostics, path,
                      "nothing was written: the depfile cannot name " +
                          support::printable_name(depfile.unnameable) +
                          ", whose path holds a control character; rename it");
    return Outcome::Failed;
  }
  files.push_back({base + ".carbide.d", depfile.text});
  const output::OutputFile manifest =
      output::make_manifest(out.str().str(), stem, compiled.cache_key, files);
  if (std::string error = output::write_set(out.str().str(), files, manifest); !error.empty()) {
    report_file_error(diagnostics, path, error);
    return Outcome::Failed;
  }
  // An image an earlier translation wrote that this one does not (a .fatbin after one
  // architecture, a .ptx after --cpu-only) would be stale beside the new set.
  for (const char* image_suffix : {".ptx", ".fatbin"})
    if (llvm::none_of(files,
                     [&](const output::OutputFile& file) { return file.path == base + image_suffix; }))
      llvm::sys::fs::remove(base + image_suffix);
  return Outcome::Translated;
}

}  // namespace carbide::pipeline
