#pragma once

#include "diagnostics/fixes_export.hpp"
#include "diagnostics/sarif_log.hpp"
#include "pipeline/analysis.hpp"

namespace carbide::pipeline {

enum class Outcome { Translated, Skipped, Failed };

// One file through the whole pipeline, its diagnostics printed to `diagnostics`; on any error
// nothing under `out_dir` changes. Files may be translated on several threads at once.
Outcome translate_file(const std::string& path, const std::string& out_dir,
                       const PipelineOptions& options, llvm::raw_ostream& diagnostics);

// Where `check` sends what it found besides clang-format text on stderr.
struct CheckOutputs {
  diag::SarifLog* sarif = nullptr;    // --format=sarif or --sarif-file: findings go here too
  bool text = true;                    // clang-format text on stderr (not with --format=sarif)
  diag::FixesExport* fixes = nullptr;  // --export-fixes
  bool report_unsafe = false;          // --report-unsafe: list CARBIDE_UNSAFE sites on stdout
};

// Reports, and writes nothing: the `check` command.
Outcome check_file(const std::string& path, const PipelineOptions& options,
                   const CheckOutputs& outputs);

// Every rule `check` can report, for SARIF's rule table.
std::vector<diag::RuleDescriptor> rule_descriptors();

}  // namespace carbide::pipeline
