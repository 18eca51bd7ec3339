#include "nvcc/ptx_directives.hpp"

namespace carbide::nvcc {

std::string require_exact_blocks(const std::string& ptx, const ExactBlocks& blocks,
                                 std::string& missing) {
  std::string result = ptx;
  missing.clear();
  for (const auto& [entry, block] : blocks) {
    const std::size_t header = result.find(".entry " + entry + "(");
    const std::size_t body = header == std::string::npos ? header : result.find('{', header);
    const std::size_t directive =
        header == std::string::npos ? header : result.find(".maxntid", header);
    if (directive == std::string::npos || directive > body) {
      if (missing.empty()) missing = entry;
      continue;
    }
    const std::size_t line_end = result.find('\n', directive);
    result.replace(directive, line_end - directive,
                   ".reqntid " + std::to_string(block[0]) + ", " + std::to_string(block[1]) +
                       ", " + std::to_string(block[2]));
  }
  return result;
}

}  // namespace carbide::nvcc
