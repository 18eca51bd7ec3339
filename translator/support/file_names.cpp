#include "support/file_names.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/Path.h>

namespace carbide::support {
namespace {

bool is_control(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte < 0x20 || byte == 0x7f;
}

}  // namespace

bool has_control_character(llvm::StringRef text) { return llvm::any_of(text, is_control); }

std::string unusable_source_path(llvm::StringRef path) {
  if (has_control_character(path))
    return "its path holds a control character (shown as \\NNN), which the depfile and the "
           "diagnostics cannot name; rename it";
  if (!llvm::json::isUTF8(path))
    return "its path is not UTF-8, which SARIF and the generated files need; rename it";
  const llvm::StringRef name = llvm::sys::path::filename(path);
  for (const char c : {'"', '\\'})
    if (name.contains(c))
      return std::string("its name holds '") + c +
             "', which the generated host stubs cannot #include their header by; rename it";
  return "";
}

std::string unusable_output_dir(llvm::StringRef path) {
  if (has_control_character(path))
    return "the output folder's path holds a control character (shown as \\NNN), which the "
           "depfile cannot name; choose another folder";
  return "";
}

std::string unsafe_nvcc_flag(llvm::StringRef flag) {
  for (const char c : flag) {
    if (is_control(c))
      return "holds a control character, which would end the command nvcc runs";
    if (llvm::StringRef("$`\"\\").contains(c))
      return std::string("holds '") + c +
             "', which nvcc passes on to a shell unescaped; a flag for nvcc cannot carry it";
  }
  return "";
}

bool is_plain_path(llvm::StringRef path) {
  return llvm::all_of(path, [](char c) {
    return llvm::isAlnum(c) || llvm::StringRef("/._+-").contains(c);
  });
}

std::string octal_escape(unsigned char byte) {
  return {'\\', char('0' + (byte >> 6)), char('0' + ((byte >> 3) & 7)), char('0' + (byte & 7))};
}

std::string printable_name(llvm::StringRef text) {
  std::string out;
  for (const char c : text) out += is_control(c) ? octal_escape(static_cast<unsigned char>(c)) : std::string(1, c);
  return out;
}

}  // namespace carbide::support
