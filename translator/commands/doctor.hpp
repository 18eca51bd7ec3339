#pragma once

#include "pipeline/analysis.hpp"

namespace carbide::commands {

// `carbide doctor`: each thing the translator and its outputs need, found (ok) or how to fix
// it. Exit status 1 when something the translator needs is missing; a machine without a GPU
// is fine (it says so).
int doctor(const pipeline::PipelineOptions& options);

}  // namespace carbide::commands
