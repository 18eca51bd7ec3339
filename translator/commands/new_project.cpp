#include "commands/new_project.hpp"

#include "commands/vecadd_template.hpp"
#include "output/atomic_output.hpp"
#include "support/version.hpp"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <cctype>

namespace carbide::commands {
namespace {

std::string cmake_lists(const std::string& name) {
  return "cmake_minimum_required(VERSION 3.20)\nproject(" + name +
         " LANGUAGES CXX)\n\nset(CMAKE_CXX_STANDARD 17)\nset(CMAKE_EXPORT_COMPILE_COMMANDS ON)\n"
         "find_package(Carbide " + std::string(compatible_version()) + " REQUIRED)\n\nadd_executable(vecadd vecadd.cpp)\n"
         "carbide_add_kernels(vecadd SOURCES vecadd.cpp)  # runs on every GPU from sm_80\n";
}

std::string readme(const std::string& name, const std::string& prefix) {
  return "# " + name + "\n\nA Carbide project: `vecadd.cpp` holds a checked kernel and the host code that "
         "launches it.\n\n```sh\ncmake -S . -B build -G Ninja -DCarbide_DIR=" + prefix +
         "\ncmake --build build && ./build/vecadd\n```\n\nWithout a GPU, `./build/vecadd` runs its kernel "
         "on the CPU, with run-time race and bounds checks, and says so on stderr; "
         "`CARBIDE_DEVICE=cpu` asks for that on any machine.\n\n`carbide check vecadd.cpp` reports "
         "problems without building.\n\nTo step through the kernel on the CPU with gdb, build with "
         "`-DCMAKE_BUILD_TYPE=Debug` and run `CARBIDE_DEVICE=cpu CARBIDE_CPU_THREADS=1 gdb -x .gdbinit "
         "./build/vecadd`: `.gdbinit` loads Carbide's pretty-printers (or add `add-auto-load-safe-path` "
         "for this folder to `~/.gdbinit`, and gdb loads it by itself).\n";
}

// gdb reads a project's .gdbinit only when told to (`gdb -x .gdbinit`) or when the folder is on
// its auto-load safe path; the README says both.
std::string gdbinit(const std::string& runtime_include) {
  llvm::SmallString<256> printers(runtime_include);
  llvm::sys::path::append(printers, "carbide", "gdb_printers.py");
  return "# Carbide's pretty-printers, for kernels stepped through on the CPU context (CARBIDE_DEVICE=cpu):\n"
         "# thread witnesses print as their index, views, shared arrays and vecs as their elements.\n"
         "source " + printers.str().str() + "\n";
}

}  // namespace

int new_project(const std::string& name, const std::string& carbide_prefix, const std::string& runtime_include) {
  const std::string base = llvm::sys::path::filename(name).str();
  bool valid = !base.empty() && (std::isalpha(static_cast<unsigned char>(base[0])) || base[0] == '_');
  for (char c : base) valid = valid && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-');
  if (!valid) {
    llvm::errs() << "carbide: error: '" << base
                 << "' is not a project name: use letters, digits, '_' and '-', starting with a letter\n";
    return 2;
  }
  if (llvm::sys::fs::exists(name)) {
    llvm::errs() << "carbide: error: '" << name << "' already exists; choose another name\n";
    return 1;
  }
  const std::vector<output::OutputFile> files = {
      {name + "/CMakeLists.txt", cmake_lists(base)},
      {name + "/vecadd.cpp", kVecaddTemplate},
      {name + "/README.md", readme(base, carbide_prefix)},
      {name + "/.gdbinit", gdbinit(runtime_include)}};
  if (std::string error = output::write_set(name, files); !error.empty()) {
    llvm::errs() << "carbide: error: " << error << "\n";
    return 1;
  }
  llvm::outs() << "created " << name << "/ (CMakeLists.txt, vecadd.cpp, README.md, .gdbinit); build it with:\n"
               << "  cmake -S " << name << " -B " << name << "/build -G Ninja -DCarbide_DIR="
               << carbide_prefix << "\n  cmake --build " << name << "/build && " << name
               << "/build/vecadd\n";
  return 0;
}

}  // namespace carbide::commands
