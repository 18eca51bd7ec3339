// `carbide translate` and `carbide check` over the files and directories on the command line.
#pragma once

#include "cli/command_line.hpp"

namespace carbide::commands {

// Translates (in parallel, -j) or checks every input; prints a summary when there was more than
// one file. Returns the exit status: 0 when no file failed.
int run_files(const cli::CommandLine& command, const pipeline::PipelineOptions& options);

}  // namespace carbide::commands
