// The progress line of a run over many files: on a terminal it is rewritten in place, which only
// works while it does not wrap, so it fits the terminal's width, keeping the end of the path.
#include "commands/progress_line.hpp"

#include <gtest/gtest.h>

namespace {

using carbide::commands::ProgressLine;

// The text after the last "clear line" sequence: what the terminal shows.
std::string shown(const std::string& written) {
  const std::size_t at = written.rfind("\x1b[K");
  return at == std::string::npos ? written : written.substr(at + 3);
}

TEST(ProgressLine, FitsTheTerminalKeepingTheEndOfThePath) {
  std::string written;
  llvm::raw_string_ostream out(written);
  ProgressLine progress(out, 12, /*terminal=*/true, /*columns=*/40);
  progress.started("/home/someone/projects/very/deep/tree/kernels/reduce.cpp");
  const std::string line = shown(out.str());
  EXPECT_LT(line.size(), 40u) << line;
  EXPECT_EQ(line, "[0/12] 1 running, latest .../reduce.cpp");
}

TEST(ProgressLine, AShortPathIsShownWhole) {
  std::string written;
  llvm::raw_string_ostream out(written);
  ProgressLine progress(out, 3, /*terminal=*/true, /*columns=*/80);
  progress.started("a.cpp");
  EXPECT_EQ(shown(out.str()), "[0/3] 1 running, latest a.cpp");
}

TEST(ProgressLine, ANarrowTerminalStillGetsOneLine) {
  std::string written;
  llvm::raw_string_ostream out(written);
  ProgressLine progress(out, 3, /*terminal=*/true, /*columns=*/10);
  progress.started("kernels/a.cpp");
  EXPECT_EQ(shown(out.str()), "[0/3] 1 r");
}

}  // namespace
