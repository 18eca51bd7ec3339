// Carbide's version, from the one place it is set: `project(Carbide VERSION ...)` in the top
// CMakeLists.txt, which translator/CMakeLists.txt passes to version.cpp alone (so that a new
// version recompiles one file).
#pragma once

namespace carbide {

// "0.1.0"
const char* version();
// The major.minor a project's `find_package(Carbide ...)` asks for: "0.1".
const char* compatible_version();

}  // namespace carbide
