#include "output/depfile.hpp"

#include "support/file_names.hpp"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <set>

namespace carbide::output {
namespace {

std::string escape(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

}  // namespace

Depfile make_depfile(const std::vector<std::string>& targets, const clang::SourceManager& sources,
                     const std::vector<std::string>& skip_paths) {
  std::set<std::string> inputs;
  for (auto it = sources.fileinfo_begin(); it != sources.fileinfo_end(); ++it) {
    llvm::SmallString<256> path(it->getFirst().getName());
    if (!llvm::sys::fs::exists(path)) continue;  // in-memory files
    llvm::sys::fs::make_absolute(path);
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
    if (std::find(skip_paths.begin(), skip_paths.end(), path.str().str()) != skip_paths.end())
      continue;
    inputs.insert(path.str().str());
  }
  Depfile depfile;
  std::string& text = depfile.text;
  for (const std::string& target : targets) text += (text.empty() ? "" : " ") + escape(target);
  text += ":";
  for (const std::string& input : inputs) text += " \\\n  " + escape(input);
  text += "\n";
  for (const std::string& path : targets)
    if (support::has_control_character(path)) depfile.unnameable = path;
  for (const std::string& path : inputs)
    if (support::has_control_character(path)) depfile.unnameable = path;
  return depfile;
}

}  // namespace carbide::output
