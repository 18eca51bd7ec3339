// carbide: checked CUDA from ownership-annotated C++.
#include "cli/command_line.hpp"
#include "commands/doctor.hpp"
#include "commands/new_project.hpp"
#include "commands/run_files.hpp"
#include "support/version.hpp"
#include "nvcc/nvcc_driver.hpp"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <iostream>

namespace {

// The directory `relative` under the prefix this carbide is installed in (the parent of its
// bin/), where `witness` (a path inside it; "" for the directory itself) exists; else `fallback`,
// the source or build tree's copy, for a carbide run from its build tree.
std::string installed_or(const char* argv0, llvm::StringRef relative, llvm::StringRef witness,
                         const char* fallback) {
  const std::string exe = llvm::sys::fs::getMainExecutable(argv0, reinterpret_cast<void*>(&installed_or));
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(dir, relative);
  llvm::SmallString<256> probe(dir);
  llvm::sys::path::append(probe, witness);
  return llvm::sys::fs::exists(probe) ? dir.str().str() : fallback;
}

// Carbide's runtime headers.
std::string runtime_include_dir(const char* argv0) {
  return installed_or(argv0, "include", "carbide/carbide.hpp", CARBIDE_SOURCE_INCLUDE_DIR);
}

// Where find_package(Carbide) finds this carbide: its install, or the build tree it came from.
std::string package_dir(const char* argv0) {
  return installed_or(argv0, "lib/cmake/Carbide", "CarbideConfig.cmake", CARBIDE_BUILD_TREE_PACKAGE_DIR);
}

// The headers of the toolkit whose nvcc compiles the device code, so that a file including
// <cuda_runtime.h> or <cublas_v2.h> host-side parses as nvcc would find them, without -I.
std::string cuda_include_dir(const carbide::nvcc::NvccOptions& nvcc_options) {
  std::string why;
  const auto nvcc = carbide::nvcc::find_nvcc(nvcc_options, why);
  if (!nvcc) return "";  // the translation reports the missing nvcc itself
  return carbide::nvcc::toolkit_include_dir(*nvcc, carbide::nvcc::probe_timeout(nvcc_options));
}

// The rule pages SARIF links to.
std::string rule_pages_dir(const char* argv0) {
  return installed_or(argv0, "share/doc/carbide/rules", "", CARBIDE_SOURCE_RULE_PAGES);
}

carbide::pipeline::PipelineOptions resolved_options(const carbide::cli::CommandLine& command,
                                                    const char* argv0) {
  carbide::pipeline::PipelineOptions options = command.pipeline;
  options.frontend.include_dir = runtime_include_dir(argv0);
  options.frontend.resource_dir = CARBIDE_CLANG_RESOURCE_DIR;
  options.frontend.cuda_include_dir = cuda_include_dir(options.nvcc);
  options.nvcc.include_dir = options.frontend.include_dir;
  options.rule_pages_dir = rule_pages_dir(argv0);
  return options;
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
      std::cout << "carbide " << carbide::version() << " (Clang " << CARBIDE_CLANG_VERSION
                << ")\n";
      return 0;
    case carbide::cli::Command::Doctor:
      return carbide::commands::doctor(resolved_options(command, argv[0]));
    case carbide::cli::Command::New:
      return carbide::commands::new_project(command.inputs.front(), package_dir(argv[0]), runtime_include_dir(argv[0]));
    default:
      return carbide::commands::run_files(command, resolved_options(command, argv[0]));
  }
}
