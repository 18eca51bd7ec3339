// The `carbide` command line (DESIGN §6), parsed with Boost.Program_options.
#pragma once

#include "pipeline/analysis.hpp"

#include <string>
#include <vector>

namespace carbide::cli {

enum class Command { Translate, Check, Doctor, New, Version, Help };

struct CommandLine {
  Command command = Command::Help;
  std::vector<std::string> inputs;
  std::string out_dir;
  unsigned jobs = 0;  // translate: files at once; 0 = one per core
  pipeline::PipelineOptions pipeline;
  std::string format = "clang";  // check: clang or sarif
  std::string sarif_file;        // check: SARIF written here as well, beside the text
  std::string export_fixes;      // check: YAML file for clang-apply-replacements
  bool report_unsafe = false;    // check: list every CARBIDE_UNSAFE site
  std::string help_text;
};

// Throws std::invalid_argument with a message for the user.
CommandLine parse_command_line(int argc, const char* const* argv);

}  // namespace carbide::cli
