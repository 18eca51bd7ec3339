#include "nvcc/nvcc_messages.hpp"

#include <llvm/ADT/StringExtras.h>

namespace carbide::nvcc {
namespace {

// `head` ends in `(digits)` (the front end's form) or `:digits:digits` (the preprocessor's):
// the file before it and the line.
std::optional<std::pair<llvm::StringRef, unsigned>> file_and_line(llvm::StringRef head) {
  unsigned line = 0;
  if (head.consume_back(")")) {
    const std::size_t open = head.rfind('(');
    if (open == llvm::StringRef::npos || open == 0 || head.substr(open + 1).getAsInteger(10, line))
      return std::nullopt;
    return std::make_pair(head.take_front(open), line);
  }
  const std::size_t column_colon = head.rfind(':');
  if (column_colon == llvm::StringRef::npos) return std::nullopt;
  unsigned column = 0;
  if (head.substr(column_colon + 1).getAsInteger(10, column)) return std::nullopt;
  head = head.take_front(column_colon);
  const std::size_t line_colon = head.rfind(':');
  if (line_colon == llvm::StringRef::npos || line_colon == 0 ||
      head.substr(line_colon + 1).getAsInteger(10, line))
    return std::nullopt;
  return std::make_pair(head.take_front(line_colon), line);
}

std::optional<NvccMessage> parse_line(llvm::StringRef line) {
  for (const bool is_error : {true, false}) {
    const llvm::StringRef severity = is_error ? ": error" : ": warning";
    for (std::size_t at = line.find(severity); at != llvm::StringRef::npos;
         at = line.find(severity, at + 1)) {
      llvm::StringRef after = line.substr(at + severity.size());
      // An optional diagnostic number, ` #20011-D`, before the text.
      if (after.starts_with(" #")) after = after.drop_front(2).drop_while([](char c) {
        return llvm::isAlnum(c) || c == '-';
      });
      if (!after.consume_front(": ")) continue;
      if (auto place = file_and_line(line.take_front(at)))
        return NvccMessage{place->first.str(), place->second, is_error, after.str()};
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<NvccMessage> parse_messages(llvm::StringRef output) {
  std::vector<NvccMessage> messages;
  while (!output.empty()) {
    auto [line, rest] = output.split('\n');
    output = rest;
    if (auto message = parse_line(line.rtrim())) messages.push_back(std::move(*message));
  }
  return messages;
}

std::optional<std::string> release_of(llvm::StringRef version_output) {
  const std::size_t at = version_output.find("release ");
  if (at == llvm::StringRef::npos) return std::nullopt;
  llvm::StringRef version = version_output.substr(at + 8);
  version = version.take_while([](char c) { return llvm::isDigit(c) || c == '.'; });
  if (version.empty() || !version.contains('.')) return std::nullopt;
  return version.str();
}

}  // namespace carbide::nvcc
