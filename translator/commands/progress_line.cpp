#include "commands/progress_line.hpp"

#include "support/file_names.hpp"

#include <algorithm>

namespace carbide::commands {
namespace {

constexpr const char* kClearLine = "\r\x1b[K";

const char* outcome_word(pipeline::Outcome outcome) {
  switch (outcome) {
    case pipeline::Outcome::Translated: return "translated";
    case pipeline::Outcome::Skipped: return "skipped";
    case pipeline::Outcome::Failed: return "FAILED";
  }
  return "";
}

}  // namespace

ProgressLine::ProgressLine(llvm::raw_ostream& out, std::size_t total, bool terminal, unsigned columns)
    : out_(out), total_(total), terminal_(terminal), columns_(columns) {}

void ProgressLine::started(const std::string& path) {
  std::lock_guard lock(mutex_);
  ++running_;
  latest_ = support::printable_name(path);  // a newline in a name would break the line
  redraw();
}

void ProgressLine::finished(const std::string& path, pipeline::Outcome outcome,
                            const std::string& diagnostics) {
  std::lock_guard lock(mutex_);
  ++done_;
  --running_;
  if (terminal_) out_ << kClearLine;
  out_ << diagnostics;
  if (!terminal_)
    out_ << "[" << done_ << "/" << total_ << "] " << support::printable_name(path) << ": " << outcome_word(outcome) << "\n";
  redraw();
}

void ProgressLine::close() {
  std::lock_guard lock(mutex_);
  if (terminal_) out_ << kClearLine;
  out_.flush();
}

void ProgressLine::redraw() {
  if (!terminal_) return;
  std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " +
                     std::to_string(running_) + " running, latest ";
  std::string path = latest_;
  // The path's end names the file; its start gives way first.
  if (columns_ > 0 && line.size() + path.size() >= columns_) {
    const std::size_t room = columns_ - 1 > line.size() + 3 ? columns_ - 1 - line.size() - 3 : 0;
    path = room > 0 ? "..." + path.substr(path.size() - std::min(room, path.size())) : "";
  }
  line += path;
  if (columns_ > 0 && line.size() >= columns_) line.resize(columns_ - 1);
  out_ << kClearLine << line;
  out_.flush();
}

}  // namespace carbide::commands
