// Scratch and staging directories that name the process owning them, so that a later run can
// remove what a killed or crashed run left behind (a signal handler cannot do that safely, and
// kill -9 runs none).
#pragma once

#include <string>

namespace carbide::support {

// Creates `parent`/`prefix`-<pid>-XXXXXX; "" when it cannot. `parent` "" means the system's
// temporary directory ($TMPDIR).
std::string create_owned_dir(const std::string& parent, const std::string& prefix);

// Removes every `parent`/`prefix`-<pid>-* directory whose process no longer runs.
void remove_abandoned_dirs(const std::string& parent, const std::string& prefix);

}  // namespace carbide::support
