#include "commands/progress_line.hpp"

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

ProgressLine::ProgressLine(llvm::raw_ostream& out, std::size_t total, bool terminal)
    : out_(out), total_(total), terminal_(terminal) {}

void ProgressLine::started(const std::string& path) {
  std::lock_guard lock(mutex_);
  ++running_;
  latest_ = path;
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
    out_ << "[" << done_ << "/" << total_ << "] " << path << ": " << outcome_word(outcome) << "\n";
  redraw();
}

void ProgressLine::close() {
  std::lock_guard lock(mutex_);
  if (terminal_) out_ << kClearLine;
  out_.flush();
}

void ProgressLine::redraw() {
  if (!terminal_) return;
  out_ << kClearLine << "[" << done_ << "/" << total_ << "] " << running_ << " running, latest "
       << latest_;
  out_.flush();
}

}  // namespace carbide::commands
