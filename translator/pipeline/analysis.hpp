// The front half of the pipeline, shared by `check` and `translate`: parse, model, rules.
#pragma once

#include "codegen/device_codegen.hpp"
#include "codegen/file_prefix_map.hpp"
#include "diagnostics/diagnostics_engine.hpp"
#include "frontend/source_parser.hpp"
#include "model/module_model.hpp"
#include "nvcc/nvcc_driver.hpp"
#include "tile/tile_programs.hpp"

#include <memory>
#include <optional>
#include <string>

namespace carbide::pipeline {

struct PipelineOptions {
  frontend::FrontendOptions frontend;
  diag::EngineOptions rules;
  nvcc::NvccOptions nvcc;
  codegen::FilePrefixMap file_prefix_map;  // translate: for the paths the outputs name
  bool colors = false;
  bool device_checks = true;  // translate --device-checks=off: views unchecked, for measurement
  bool cpu_only = false;      // translate --cpu-only: no nvcc, the CPU forms alone
  std::string rule_pages_dir;  // check --format=sarif: where helpUri points (docs/rules' pages)
};

// A CARBIDE_UNSAFE block, for --report-unsafe.
struct UnsafeSite {
  std::string where;  // file:line:col
  std::string function;
  std::string reason;
};

struct Analysis {
  // The force-included API header's text. Clang maps it without copying, so the AST's source
  // manager reads these bytes for as long as `ast` lives (declared first: destroyed last).
  std::unique_ptr<const frontend::VirtualHeader> api_header;
  std::unique_ptr<clang::ASTUnit> ast;
  model::Program program;
  std::unique_ptr<diag::DiagnosticsEngine> engine;
  std::unique_ptr<const tile::TilePrograms> tiles;  // the tile kernels' models and plans
  bool clang_errors = false;
  // Clang's errors as findings of `clang-diagnostic-error` (as clang-tidy names them), for SARIF.
  std::vector<diag::Finding> compile_errors;
  std::vector<UnsafeSite> unsafe_sites;
  // Subscripts proven in range (shared arrays under the contract, span reads under their tests)
  // and witnesses that may be made in 32 bits; codegen leaves out the checks and the 64-bit math.
  codegen::ProvenFacts proven;
  bool failed() const { return clang_errors || engine->has_errors(); }
};

// Prints a problem with the input itself (not at a source line) the way clang does.
void report_file_error(llvm::raw_ostream& out, const std::string& path, const std::string& message,
                       bool is_note = false);

// Parses `path` (host code sees the module API before any file is generated), builds the model
// and runs every rule. Clang's own diagnostics are printed to `diagnostics` as they happen; the
// rules' findings are in the returned engine, not yet printed. Null when Clang could not parse
// at all.
std::optional<Analysis> analyze(const std::string& path, const PipelineOptions& options,
                                llvm::raw_ostream& diagnostics);

}  // namespace carbide::pipeline
