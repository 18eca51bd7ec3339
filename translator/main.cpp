// carbide: checked CUDA from ownership-annotated C++.
#include "cli/command_line.hpp"
#include "commands/doctor.hpp"
#include "commands/new_project.hpp"
#include "codegen/generated_text.hpp"
#include "pipeline/translate.hpp"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <optional>
#include <iostream>

namespace {

using carbide::pipeline::Outcome;

// Installed, the headers sit in ../include beside bin/; in a build tree, in the source tree.
std::string runtime_include_dir(const char* argv0) {
  const std::string exe = llvm::sys::fs::getMainExecutable(argv0, reinterpret_cast<void*>(&runtime_include_dir));
  llvm::SmallString<256> installed(llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(installed, "include");
  if (llvm::sys::fs::exists(installed + "/carbide/carbide.hpp")) return installed.str().str();
  return CARBIDE_SOURCE_INCLUDE_DIR;
}

// Files named on the command line, and under each directory every C++ source that holds a
// kernel, with the folder (relative to that directory) its outputs go to.
struct Input {
  std::string path;
  std::string out_subdir;
};

bool is_cpp_source(llvm::StringRef path) {
  const llvm::StringRef ext = llvm::sys::path::extension(path);
  return ext == ".cpp" || ext == ".cc" || ext == ".cxx";
}

bool mentions_kernel(const std::string& path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer && (*buffer)->getBuffer().contains("CARBIDE_KERNEL");
}

std::vector<Input> expand_inputs(const std::vector<std::string>& args, std::size_t& skipped) {
  std::vector<Input> inputs;
  for (const std::string& arg : args) {
    if (!llvm::sys::fs::is_directory(arg)) {
      inputs.push_back({arg, ""});
      continue;
    }
    std::error_code error;
    std::vector<std::string> found;
    for (llvm::sys::fs::recursive_directory_iterator it(arg, error), end; it != end && !error;
         it.increment(error)) {
      if (it->type() != llvm::sys::fs::file_type::regular_file || !is_cpp_source(it->path()))
        continue;
      if (mentions_kernel(it->path())) found.push_back(it->path());
      else ++skipped;
    }
    std::sort(found.begin(), found.end());
    for (const std::string& path : found) {
      llvm::StringRef relative = llvm::sys::path::parent_path(path);
      relative.consume_front(arg);
      relative = relative.ltrim('/');
      inputs.push_back({path, relative.str()});
    }
  }
  return inputs;
}

// Where find_package(Carbide) finds this carbide: its install, or the build tree it came from.
std::string package_dir(const char* argv0) {
  const std::string exe = llvm::sys::fs::getMainExecutable(argv0, reinterpret_cast<void*>(&package_dir));
  llvm::SmallString<256> installed(llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(installed, "lib", "cmake", "Carbide");
  if (llvm::sys::fs::exists(installed + "/CarbideConfig.cmake")) return installed.str().str();
  return CARBIDE_BUILD_TREE_PACKAGE_DIR;
}

carbide::pipeline::PipelineOptions resolved_options(const carbide::cli::CommandLine& command,
                                                    const char* argv0) {
  carbide::pipeline::PipelineOptions options = command.pipeline;
  options.frontend.include_dir = runtime_include_dir(argv0);
  options.frontend.resource_dir = CARBIDE_CLANG_RESOURCE_DIR;
  options.nvcc.include_dir = options.frontend.include_dir;
  return options;
}

int run(const carbide::cli::CommandLine& command, const char* argv0) {
  const carbide::pipeline::PipelineOptions options = resolved_options(command, argv0);
  std::size_t translated = 0, skipped = 0, failed = 0;
  const std::vector<Input> inputs = expand_inputs(command.inputs, skipped);
  std::optional<carbide::diag::SarifLog> sarif;
  if (command.format == "sarif") sarif.emplace(carbide::pipeline::rule_descriptors());
  std::optional<carbide::diag::FixesExport> fixes;
  if (!command.export_fixes.empty()) fixes.emplace();
  const carbide::pipeline::CheckOutputs outputs{sarif ? &*sarif : nullptr, fixes ? &*fixes : nullptr,
                                                command.report_unsafe};
  for (const Input& input : inputs) {
    Outcome outcome;
    if (command.command == carbide::cli::Command::Check) {
      outcome = carbide::pipeline::check_file(input.path, options, outputs);
    } else {
      llvm::SmallString<256> out(command.out_dir);
      if (!input.out_subdir.empty()) llvm::sys::path::append(out, input.out_subdir);
      outcome = carbide::pipeline::translate_file(input.path, out.str().str(), options);
    }
    translated += outcome == Outcome::Translated;
    skipped += outcome == Outcome::Skipped;
    failed += outcome == Outcome::Failed;
  }
  if (sarif) std::cout << sarif->str();
  if (fixes) {
    std::error_code error;
    llvm::raw_fd_ostream out(command.export_fixes, error);
    if (error) {
      llvm::errs() << "carbide: error: cannot write '" << command.export_fixes << "': " << error.message() << "\n";
      return 1;
    }
    out << fixes->yaml();
  }
  const bool any_directory = std::any_of(command.inputs.begin(), command.inputs.end(),
                                         [](const std::string& arg) { return llvm::sys::fs::is_directory(arg); });
  if (inputs.size() > 1 || any_directory)
    llvm::errs() << "carbide: " << translated
                 << (command.command == carbide::cli::Command::Check ? " checked, " : " translated, ")
                 << failed << " failed, " << skipped << " skipped\n";
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, const char** argv) {
  carbide::cli::CommandLine command;
  try {
    command = carbide::cli::parse_command_line(argc, argv);
  } catch (const std::invalid_argument& error) {
    llvm::errs() << "carbide: error: " << error.what() << "\n(run 'carbide --help' for usage)\n";
    return 2;
  }
  switch (command.command) {
    case carbide::cli::Command::Help:
      std::cout << command.help_text;
      return 0;
    case carbide::cli::Command::Version:
      std::cout << "carbide " << carbide::codegen::kCarbideVersion << " (Clang " << CARBIDE_CLANG_VERSION
                << ")\n";
      return 0;
    case carbide::cli::Command::Doctor:
      return carbide::commands::doctor(resolved_options(command, argv[0]));
    case carbide::cli::Command::New:
      return carbide::commands::new_project(command.inputs.front(), package_dir(argv[0]));
    default:
      return run(command, argv[0]);
  }
}
