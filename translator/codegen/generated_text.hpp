// Small pieces every generator writes the same way.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>
#include <vector>

namespace carbide::codegen {

// The first lines of every generated file; the source's name printable (support::printable_name).
std::string banner(const std::string& source_name, const std::string& what);

// `namespace a { inline namespace b {` and its closing counterpart; "" opens an anonymous
// namespace, and the names whose `inline_flags` entry is set open inline namespaces.
std::string open_namespaces(const std::vector<std::string>& path,
                            const std::vector<bool>& inline_flags = {});
std::string close_namespaces(const std::vector<std::string>& path);

std::string join(const std::vector<std::string>& parts, const std::string& separator);

// `text` as a C string literal, quotes included: `"`, `\\`, control characters and bytes that
// are not UTF-8 escaped (octal, which no following character extends), so a file name can end
// neither the literal, nor the line, nor the directive it stands in.
std::string c_string_literal(const std::string& text);

// The text of a literal c_string_literal wrote (all of `literal`, quotes included); nullopt for
// anything else.
std::optional<std::string> parse_c_string_literal(llvm::StringRef literal);

// `#line N "file"`, the file spelled as a C string literal.
std::string line_directive(unsigned line, const std::string& file);

// `#line` back to the generated file itself, for the line after this directive, once `text` holds
// copied user code under the user's line numbers.
std::string line_of_generated_file(const std::string& text, const std::string& generated_name);

}  // namespace carbide::codegen
