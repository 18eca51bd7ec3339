// --file-prefix-map OLD=NEW, as compilers have it: the paths the generated files name (in their
// #line directives) start with NEW where the real path starts with OLD, so the outputs of one
// commit are the same bytes in every checkout. nvcc's messages name the mapped paths; `unmap`
// turns them back into files the translator can place findings in.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace carbide::codegen {

class FilePrefixMap {
 public:
  // "OLD=NEW"; nullopt when there is no '=' or OLD is empty.
  static std::optional<std::pair<std::string, std::string>> parse(const std::string& option);

  void add(std::string old_prefix, std::string new_prefix);
  bool empty() const { return entries_.empty(); }

  // The last entry given whose OLD starts `path` (as whole path components) wins.
  std::string map(const std::string& path) const;
  std::string unmap(const std::string& path) const;

  // `text` with the file of every `#line N "file"` directive mapped.
  std::string map_line_directives(const std::string& text) const;

 private:
  std::vector<std::pair<std::string, std::string>> entries_;
};

}  // namespace carbide::codegen
