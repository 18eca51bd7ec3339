#include "commands/run_files.hpp"

#include "commands/progress_line.hpp"
#include "pipeline/translate.hpp"

#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <unistd.h>

namespace carbide::commands {
namespace {

using pipeline::Outcome;

// A file named on the command line, or found under a directory argument, with the folder
// (relative to that directory) its outputs go to.
struct Input {
  std::string path;
  std::string out_subdir;
};

struct Tally {
  std::atomic<std::size_t> translated = 0, failed = 0, skipped = 0;
  void count(Outcome outcome) {
    translated += outcome == Outcome::Translated;
    skipped += outcome == Outcome::Skipped;
    failed += outcome == Outcome::Failed;
  }
};

// A crash on one file (a Carbide bug) fails that file and no other: the rest of a directory run,
// its summary and its SARIF log still come out.
Outcome guarded(const std::string& path, llvm::raw_ostream& diagnostics,
                llvm::function_ref<Outcome()> work) {
  Outcome outcome = Outcome::Failed;
  llvm::CrashRecoveryContext recovery;
  if (recovery.RunSafely([&] { outcome = work(); })) return outcome;
  const int signal = recovery.RetCode > 128 ? recovery.RetCode - 128 : recovery.RetCode;
  pipeline::report_file_error(diagnostics, path,
                              "internal error: Carbide crashed on this file (signal " +
                                  std::to_string(signal) +
                                  "); nothing was written for it. Please report it with the file");
  return Outcome::Failed;
}

bool is_cpp_source(llvm::StringRef path) {
  const llvm::StringRef ext = llvm::sys::path::extension(path);
  return ext == ".cpp" || ext == ".cc" || ext == ".cxx";
}

bool mentions_kernel(const std::string& path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer && ((*buffer)->getBuffer().contains("CARBIDE_KERNEL") ||
                     (*buffer)->getBuffer().contains("CARBIDE_TILE_KERNEL"));
}

// A file found under a directory: a regular file, or a link to one. Links to directories are
// not followed (as `find` does not), so a link loop cannot make the walk endless.
bool is_file_entry(const llvm::sys::fs::directory_entry& entry) {
  const auto type = entry.type();
  return type == llvm::sys::fs::file_type::regular_file ||
         (type == llvm::sys::fs::file_type::symlink_file && llvm::sys::fs::is_regular_file(entry.path()));
}

// Under each directory, every C++ source that holds a kernel, in a stable order; the others
// count as skipped.
std::vector<Input> expand_inputs(const std::vector<std::string>& args, Tally& tally) {
  std::vector<Input> inputs;
  for (const std::string& arg : args) {
    if (!llvm::sys::fs::is_directory(arg)) {
      inputs.push_back({arg, ""});
      continue;
    }
    std::error_code error;
    std::vector<std::string> found;
    for (llvm::sys::fs::recursive_directory_iterator it(arg, error, /*follow_symlinks=*/false), end;
         it != end && !error; it.increment(error)) {
      if (!is_file_entry(*it) || !is_cpp_source(it->path())) continue;
      if (mentions_kernel(it->path())) found.push_back(it->path());
      else ++tally.skipped;
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

std::string output_dir(const cli::CommandLine& command, const Input& input) {
  llvm::SmallString<256> out(command.out_dir);
  if (!input.out_subdir.empty()) llvm::sys::path::append(out, input.out_subdir);
  return out.str().str();
}

// Where a translation's files go: its output directory and the stem they share.
std::string output_base(const cli::CommandLine& command, const Input& input) {
  llvm::SmallString<256> base(output_dir(command, input));
  llvm::sys::fs::make_absolute(base);
  llvm::sys::path::remove_dots(base, /*remove_dot_dot=*/true);
  llvm::sys::path::append(base, llvm::sys::path::stem(input.path));
  return base.str().str();
}

std::string identity(const std::string& path) {
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(path, real)) return path;
  return real.str().str();
}

// Inputs that would write the same outputs: one file named twice (or through a link) is
// translated once; two files with one stem (a/k.cpp and b/k.cpp, k.cpp and k.cc) would
// overwrite each other's outputs, so neither is translated and both are reported.
std::vector<Input> without_clashes(const cli::CommandLine& command, std::vector<Input> inputs,
                                   Tally& tally) {
  std::set<std::string> seen;
  std::vector<Input> unique;
  for (Input& input : inputs)
    if (seen.insert(identity(input.path)).second) unique.push_back(std::move(input));
  std::vector<std::string> bases;
  std::map<std::string, std::vector<std::size_t>> by_base;  // output base → inputs
  for (std::size_t i = 0; i < unique.size(); ++i) {
    bases.push_back(output_base(command, unique[i]));
    by_base[bases.back()].push_back(i);
  }
  std::vector<Input> kept;
  for (std::size_t i = 0; i < unique.size(); ++i) {
    const std::vector<std::size_t>& sharing = by_base[bases[i]];
    if (sharing.size() == 1) {
      kept.push_back(unique[i]);
      continue;
    }
    const Input& other = unique[sharing[sharing.front() == i ? 1 : 0]];
    pipeline::report_file_error(
        llvm::errs(), unique[i].path,
        "its outputs " + bases[i] + ".carbide.* would overwrite those of '" +
            other.path + "'; translate the two into different -o folders, or rename one");
    ++tally.failed;
  }
  return kept;
}

// Each worker takes the next file; a file's diagnostics are collected and printed whole when it
// is done, so the output of files translated at once never interleaves.
void translate_in_parallel(const cli::CommandLine& command, const pipeline::PipelineOptions& options,
                           const std::vector<Input>& inputs, unsigned jobs, Tally& tally) {
  ProgressLine progress(llvm::errs(), inputs.size(), isatty(2), llvm::sys::Process::StandardErrColumns());
  std::atomic<std::size_t> next = 0;
  auto work = [&] {
    for (std::size_t i; (i = next++) < inputs.size();) {
      progress.started(inputs[i].path);
      std::string text;
      llvm::raw_string_ostream diagnostics(text);
      diagnostics.enable_colors(options.colors);
      const Outcome outcome = guarded(inputs[i].path, diagnostics, [&] {
        return pipeline::translate_file(inputs[i].path, output_dir(command, inputs[i]), options, diagnostics);
      });
      diagnostics.flush();
      tally.count(outcome);
      progress.finished(inputs[i].path, outcome, text);
    }
  };
  std::vector<std::thread> workers;
  for (unsigned j = 1; j < std::min<std::size_t>(jobs, inputs.size()); ++j) workers.emplace_back(work);
  work();
  for (std::thread& worker : workers) worker.join();
  progress.close();
}

// A report file check writes (--export-fixes, --sarif-file); false, having said why, when it cannot.
bool write_report(const std::string& path, const std::string& text) {
  std::error_code error;
  llvm::raw_fd_ostream out(path, error);
  if (error) {
    llvm::errs() << "carbide: error: cannot write '" << path << "': " << error.message() << "\n";
    return false;
  }
  out << text;
  return true;
}

int check_in_turn(const cli::CommandLine& command, const pipeline::PipelineOptions& options,
                  const std::vector<Input>& inputs, Tally& tally) {
  const bool sarif_on_stdout = command.format == "sarif";
  std::optional<diag::SarifLog> sarif;
  if (sarif_on_stdout || !command.sarif_file.empty())
    sarif.emplace(pipeline::rule_descriptors(), options.rule_pages_dir);
  std::optional<diag::FixesExport> fixes;
  if (!command.export_fixes.empty()) fixes.emplace();
  const pipeline::CheckOutputs outputs{sarif ? &*sarif : nullptr, !sarif_on_stdout,
                                       fixes ? &*fixes : nullptr, command.report_unsafe};
  for (const Input& input : inputs)
    tally.count(guarded(input.path, llvm::errs(),
                        [&] { return pipeline::check_file(input.path, options, outputs); }));
  if (sarif_on_stdout) std::cout << sarif->str();
  if (!command.sarif_file.empty() && !write_report(command.sarif_file, sarif->str())) return 1;
  if (fixes && !write_report(command.export_fixes, fixes->yaml())) return 1;
  return 0;
}

}  // namespace

int run_files(const cli::CommandLine& command, const pipeline::PipelineOptions& options) {
  llvm::CrashRecoveryContext::Enable();
  Tally tally;
  const bool checking = command.command == cli::Command::Check;
  std::vector<Input> inputs = expand_inputs(command.inputs, tally);
  const bool any_directory = std::any_of(command.inputs.begin(), command.inputs.end(),
                                         [](const std::string& arg) { return llvm::sys::fs::is_directory(arg); });
  const bool many = inputs.size() > 1 || any_directory;
  if (!checking) inputs = without_clashes(command, std::move(inputs), tally);
  if (checking) {
    if (int status = check_in_turn(command, options, inputs, tally)) return status;
  } else if (many) {
    const unsigned jobs = command.jobs ? command.jobs : std::max(1u, std::thread::hardware_concurrency());
    translate_in_parallel(command, options, inputs, jobs, tally);
  } else {
    for (const Input& input : inputs)
      tally.count(guarded(input.path, llvm::errs(), [&] {
        return pipeline::translate_file(input.path, output_dir(command, input), options, llvm::errs());
      }));
  }
  if (many)
    llvm::errs() << "carbide: " << tally.translated << (checking ? " checked, " : " translated, ")
                 << tally.failed << " failed, " << tally.skipped << " skipped\n";
  return tally.failed == 0 ? 0 : 1;
}

}  // namespace carbide::commands
