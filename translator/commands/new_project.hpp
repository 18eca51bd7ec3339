#pragma once

#include <string>

namespace carbide::commands {

// `carbide new NAME`: a directory NAME holding a project that builds with two commands:
// CMakeLists.txt (find_package(Carbide)), vecadd.cpp, a README, and a .gdbinit that loads
// Carbide's pretty-printers (carbide/gdb_printers.py under `runtime_include`).
int new_project(const std::string& name, const std::string& carbide_prefix, const std::string& runtime_include);

}  // namespace carbide::commands
