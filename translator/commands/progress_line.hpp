// How a run over many files shows where it is: on a terminal one line, rewritten as files
// finish, with each file's diagnostics printed above it; elsewhere (CI logs, pipes) one plain
// line per finished file.
#pragma once

#include "pipeline/translate.hpp"

#include <llvm/Support/raw_ostream.h>

#include <cstddef>
#include <mutex>
#include <string>

namespace carbide::commands {

class ProgressLine {
 public:
  // `columns`: the terminal's width; the line never wraps (a wrapped line cannot be rewritten
  // in place). 0: as wide as anything.
  ProgressLine(llvm::raw_ostream& out, std::size_t total, bool terminal, unsigned columns = 0);

  void started(const std::string& path);
  // Prints the file's diagnostics (whole, never interleaved with another file's) and its outcome.
  void finished(const std::string& path, pipeline::Outcome outcome, const std::string& diagnostics);
  // Clears the line, so the summary starts on a clean one.
  void close();

 private:
  void redraw();

  std::mutex mutex_;
  llvm::raw_ostream& out_;
  const std::size_t total_;
  const bool terminal_;
  const unsigned columns_;
  std::size_t done_ = 0;
  std::size_t running_ = 0;
  std::string latest_;
};

}  // namespace carbide::commands
