#include "codegen/file_prefix_map.hpp"

#include <llvm/ADT/StringRef.h>

namespace carbide::codegen {
namespace {

// `path` with `from` replaced by `to`, when `from` is `path` or a leading part of it that ends
// at a '/'.
std::optional<std::string> replace_prefix(llvm::StringRef path, llvm::StringRef from,
                                          llvm::StringRef to) {
  if (!path.starts_with(from)) return std::nullopt;
  llvm::StringRef rest = path.drop_front(from.size());
  if (!rest.empty() && !rest.starts_with("/") && !from.ends_with("/")) return std::nullopt;
  return to.str() + rest.str();
}

}  // namespace

std::optional<std::pair<std::string, std::string>> FilePrefixMap::parse(const std::string& option) {
  const std::size_t equals = option.find('=');
  if (equals == std::string::npos || equals == 0) return std::nullopt;
  return std::make_pair(option.substr(0, equals), option.substr(equals + 1));
}

void FilePrefixMap::add(std::string old_prefix, std::string new_prefix) {
  entries_.emplace_back(std::move(old_prefix), std::move(new_prefix));
}

std::string FilePrefixMap::map(const std::string& path) const {
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it)
    if (auto mapped = replace_prefix(path, it->first, it->second)) return *mapped;
  return path;
}

std::string FilePrefixMap::unmap(const std::string& path) const {
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it)
    if (auto real = replace_prefix(path, it->second, it->first)) return *real;
  return path;
}

std::string FilePrefixMap::map_line_directives(const std::string& text) const {
  if (entries_.empty()) return text;
  std::string out;
  out.reserve(text.size());
  llvm::StringRef rest(text);
  while (!rest.empty()) {
    auto [line, after] = rest.split('\n');
    const bool had_newline = line.size() < rest.size();
    rest = after;
    llvm::StringRef directive = line;
    // #line 12 "path"
    if (directive.consume_front("#line ")) {
      const std::size_t open = directive.find('"');
      const std::size_t close = directive.rfind('"');
      if (open != llvm::StringRef::npos && close > open) {
        out += line.take_front(line.size() - directive.size() + open + 1).str();
        out += map(directive.slice(open + 1, close).str());
        out += directive.drop_front(close).str();
        if (had_newline) out += '\n';
        continue;
      }
    }
    out += line.str();
    if (had_newline) out += '\n';
  }
  return out;
}

}  // namespace carbide::codegen
