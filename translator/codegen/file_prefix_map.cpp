#include "codegen/file_prefix_map.hpp"

#include "codegen/generated_text.hpp"

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
    // #line 12 "path", the path a C string literal (codegen::line_directive)
    llvm::StringRef directive = line;
    unsigned number = 0;
    if (directive.consume_front("#line ") && !directive.consumeInteger(10, number) &&
        directive.consume_front(" ")) {
      if (auto file = parse_c_string_literal(directive)) {
        out += line_directive(number, map(*file));
        if (!had_newline) out.pop_back();
        continue;
      }
    }
    out += line.str();
    if (had_newline) out += '\n';
  }
  return out;
}

}  // namespace carbide::codegen
