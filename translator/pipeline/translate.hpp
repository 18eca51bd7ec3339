#pragma once

#include "pipeline/analysis.hpp"

namespace carbide::pipeline {

enum class Outcome { Translated, Skipped, Failed };

// One file through the whole pipeline; on any error nothing under `out_dir` changes.
Outcome translate_file(const std::string& path, const std::string& out_dir,
                       const PipelineOptions& options);

// Reports, and writes nothing: the `check` command.
Outcome check_file(const std::string& path, const PipelineOptions& options);

}  // namespace carbide::pipeline
