// nvcc's diagnostics, read line by line without regular expressions (a `std::regex` over a long
// line of user code overflows the stack): the front end writes `file(line): error: text` (with
// an optional ` #number-name` after the severity), its preprocessor `file:line:col: error: text`.
// Pure, so it is tested without nvcc.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>
#include <vector>

namespace carbide::nvcc {

struct NvccMessage {
  std::string file;
  unsigned line = 0;
  bool is_error = true;
  std::string text;
};

std::vector<NvccMessage> parse_messages(llvm::StringRef output);

// "13.0" from `nvcc --version`'s "release 13.0, V13.0.48".
std::optional<std::string> release_of(llvm::StringRef version_output);

}  // namespace carbide::nvcc
