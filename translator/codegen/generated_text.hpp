// Small pieces every generator writes the same way.
#pragma once

#include <string>
#include <vector>

namespace carbide::codegen {

// The first lines of every generated file.
std::string banner(const std::string& source_name, const std::string& what);

// `namespace a { inline namespace b {` and its closing counterpart; "" opens an anonymous
// namespace, and the names whose `inline_flags` entry is set open inline namespaces.
std::string open_namespaces(const std::vector<std::string>& path,
                            const std::vector<bool>& inline_flags = {});
std::string close_namespaces(const std::vector<std::string>& path);

std::string join(const std::vector<std::string>& parts, const std::string& separator);

// `#line` back to the generated file itself, for the line after this directive, once `text` holds
// copied user code under the user's line numbers.
std::string line_of_generated_file(const std::string& text, const std::string& generated_name);

}  // namespace carbide::codegen
