#pragma once

#include <clang/Basic/SourceManager.h>

#include <string>
#include <vector>

namespace carbide::output {

// A make-style depfile: the outputs depend on every file the translation read.
std::string make_depfile(const std::vector<std::string>& targets,
                         const clang::SourceManager& sources,
                         const std::vector<std::string>& skip_paths);

}  // namespace carbide::output
