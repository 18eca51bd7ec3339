#pragma once

#include <clang/Basic/SourceManager.h>

#include <string>
#include <vector>

namespace carbide::output {

struct Depfile {
  std::string text;
  std::string unnameable;  // a path the format cannot write (a control character), "" when none
};

// A make-style depfile: the outputs depend on every file the translation read. Spaces, '#' and
// '$' are escaped as make and Ninja read them; a path with a control character cannot be
// written at all, and is named in `unnameable` instead of being dropped (a dependency left out
// would leave builds stale).
Depfile make_depfile(const std::vector<std::string>& targets, const clang::SourceManager& sources,
                     const std::vector<std::string>& skip_paths);

}  // namespace carbide::output
