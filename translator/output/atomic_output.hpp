// Writes a translation's files as one set. Every file is first written whole into a staging
// directory beside the targets; only then are they renamed into place, with the set's manifest
// removed before the first rename and written after the last. A run killed part-way leaves no
// manifest, so nothing later trusts the mixed set (the next translation rewrites all of it), and
// the generated stubs refuse to compile against an API header of another translation.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace carbide::output {

struct OutputFile {
  std::string path;  // in the output directory
  std::string content;
};

// "" on success, else what went wrong. When it fails before the first rename, the previous
// outputs stay as they were. Staging directories of runs that no longer exist are removed.
std::string write_set(const std::string& directory, const std::vector<OutputFile>& files,
                      const std::optional<OutputFile>& manifest = std::nullopt);

}  // namespace carbide::output
