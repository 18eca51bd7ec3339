#pragma once

#include <string>

namespace carbide::commands {

// `carbide new NAME`: a directory NAME holding a project that builds with two commands:
// CMakeLists.txt (find_package(Carbide)), vecadd.cpp and a README.
int new_project(const std::string& name, const std::string& carbide_prefix);

}  // namespace carbide::commands
