// Writes a translation's files all-or-nothing: each goes to a temporary file beside its target,
// and only when every one was written are they renamed into place. On failure the previous
// outputs stay as they were.
#pragma once

#include <string>
#include <vector>

namespace carbide::output {

struct OutputFile {
  std::string path;
  std::string content;
};

// "" on success, else what went wrong (and nothing was replaced).
std::string write_all(const std::string& directory, const std::vector<OutputFile>& files);

}  // namespace carbide::output
