// What a rule or a pipeline stage found, before anyone decides how (or whether) to print it.
#pragma once

#include <clang/Basic/SourceLocation.h>

#include <string>
#include <vector>

namespace carbide::diag {

enum class Severity { Warning, Error };

struct Note {
  clang::SourceLocation location;
  std::string message;
};

struct FixIt {
  clang::CharSourceRange range;
  std::string replacement;
};

struct Finding {
  std::string rule;  // carbide-...
  Severity severity = Severity::Error;
  clang::SourceLocation location;
  std::vector<clang::CharSourceRange> highlights;
  std::string message;
  std::vector<Note> notes;
  std::vector<FixIt> fixits;
};

// Everything that finds problems reports here; only the engine behind it prints.
class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void report(Finding finding) = 0;
};

}  // namespace carbide::diag
