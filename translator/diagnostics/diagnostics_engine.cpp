#include "diagnostics/diagnostics_engine.hpp"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Frontend/TextDiagnostic.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/GlobPattern.h>

#include <algorithm>

namespace carbide::diag {

GlobList::GlobList(std::string globs) {
  llvm::StringRef rest(globs);
  while (!rest.empty()) {
    auto [item, tail] = rest.split(',');
    rest = tail;
    item = item.trim();
    if (item.empty()) continue;
    const bool positive = !item.consume_front("-");
    globs_.push_back({positive, item.trim().str()});
  }
}

std::vector<std::string> GlobList::positive_patterns_matching_none(
    const std::vector<std::string>& names) const {
  std::vector<std::string> unmatched;
  for (const Glob& glob : globs_) {
    auto pattern = llvm::GlobPattern::create(glob.pattern);
    if (glob.positive && (!pattern || std::none_of(names.begin(), names.end(), [&](const std::string& name) {
          return pattern->match(name);
        })))
      unmatched.push_back(glob.pattern);
  }
  return unmatched;
}

bool GlobList::matches(const std::string& name) const {
  bool result = false;
  for (const Glob& glob : globs_) {
    auto pattern = llvm::GlobPattern::create(glob.pattern);
    if (pattern && pattern->match(name)) result = glob.positive;
  }
  return result;
}

DiagnosticsEngine::DiagnosticsEngine(EngineOptions options)
    : enabled_(options.checks), as_errors_(options.warnings_as_errors) {}

void DiagnosticsEngine::attach(const clang::SourceManager& sources,
                               const clang::LangOptions& language) {
  sources_ = &sources;
  language_ = &language;
}

namespace {

// True when `comment` (the text after NOLINT or NOLINTNEXTLINE) names `rule` or names nothing.
bool nolint_names(llvm::StringRef after, const std::string& rule) {
  if (!after.consume_front("(")) return true;
  llvm::StringRef names = after.take_until([](char c) { return c == ')'; });
  llvm::SmallVector<llvm::StringRef> parts;
  names.split(parts, ',');
  for (llvm::StringRef part : parts) {
    auto pattern = llvm::GlobPattern::create(part.trim());
    if (pattern && pattern->match(rule)) return true;
  }
  return false;
}

bool line_has_nolint(llvm::StringRef line, llvm::StringRef marker, const std::string& rule) {
  for (std::size_t at = line.find(marker); at != llvm::StringRef::npos;
       at = line.find(marker, at + 1)) {
    llvm::StringRef after = line.substr(at + marker.size());
    // NOLINT must not match the NOLINTNEXTLINE spelling.
    if (marker == "NOLINT" && after.starts_with("NEXTLINE")) continue;
    if (nolint_names(after, rule)) return true;
  }
  return false;
}

llvm::StringRef line_text(llvm::StringRef buffer, unsigned line) {
  for (unsigned current = 1; current < line && !buffer.empty(); ++current)
    buffer = buffer.split('\n').second;
  return buffer.split('\n').first;
}

}  // namespace

bool DiagnosticsEngine::suppressed_by_comment(const Finding& finding) const {
  if (sources_ == nullptr || finding.location.isInvalid()) return false;
  const clang::SourceLocation at = sources_->getExpansionLoc(finding.location);
  const clang::FileID file = sources_->getFileID(at);
  bool invalid = false;
  const llvm::StringRef buffer = sources_->getBufferData(file, &invalid);
  if (invalid) return false;
  const unsigned line = sources_->getSpellingLineNumber(at);
  if (line_has_nolint(line_text(buffer, line), "NOLINT", finding.rule)) return true;
  return line > 1 && line_has_nolint(line_text(buffer, line - 1), "NOLINTNEXTLINE", finding.rule);
}

void DiagnosticsEngine::report(Finding finding) {
  if (!enabled_.matches(finding.rule)) return;
  if (suppressed_by_comment(finding)) return;
  if (finding.severity == Severity::Warning && as_errors_.matches(finding.rule))
    finding.severity = Severity::Error;
  // Each instantiation of a template reports the same line: one diagnostic per fault.
  for (const Finding& known : findings_)
    if (known.rule == finding.rule && known.location == finding.location &&
        known.message == finding.message)
      return;
  findings_.push_back(std::move(finding));
}

bool DiagnosticsEngine::has_errors() const {
  for (const Finding& finding : findings_)
    if (finding.severity == Severity::Error) return true;
  return false;
}

void DiagnosticsEngine::print_text(llvm::raw_ostream& out, bool colors) const {
  if (findings_.empty()) return;
  // Clang's printers share ownership of their options.
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options(new clang::DiagnosticOptions);
  options->ShowColors = colors;
  clang::TextDiagnostic printer(out, *language_, options.get());
  // In source order, as clang-tidy prints, whatever order the rules ran in.
  std::vector<const Finding*> ordered;
  for (const Finding& finding : findings_) ordered.push_back(&finding);
  std::stable_sort(ordered.begin(), ordered.end(), [&](const Finding* a, const Finding* b) {
    return sources_->isBeforeInTranslationUnit(sources_->getExpansionLoc(a->location),
                                               sources_->getExpansionLoc(b->location));
  });
  for (const Finding* entry : ordered) {
    const Finding& finding = *entry;
    llvm::SmallVector<clang::FixItHint> hints;
    for (const FixIt& fix : finding.fixits)
      hints.push_back(clang::FixItHint::CreateReplacement(fix.range, fix.replacement));
    const auto level = finding.severity == Severity::Error ? clang::DiagnosticsEngine::Error
                                                           : clang::DiagnosticsEngine::Warning;
    printer.emitDiagnostic(clang::FullSourceLoc(finding.location, *sources_), level,
                           finding.message + " [" + finding.rule + "]", finding.highlights,
                           hints);
    for (const Note& note : finding.notes)
      printer.emitDiagnostic(clang::FullSourceLoc(note.location, *sources_),
                             clang::DiagnosticsEngine::Note, note.message, {}, {});
  }
}

}  // namespace carbide::diag
