// nvcc's diagnostics are read without regular expressions: both of its formats, and lines of any
// length (a std::regex over a 26 KB line of user code overflowed the stack).
#include "nvcc/nvcc_messages.hpp"

#include <gtest/gtest.h>

namespace carbide::nvcc {
namespace {

TEST(NvccMessages, ReadsTheFrontEndsForm) {
  const auto messages = parse_messages(
      "/w/k.cpp(12): error: identifier \"x\" is undefined\n"
      "/w/k.cpp(3): warning #177-D: variable \"y\" was declared but never referenced\n"
      "1 error detected in the compilation of \"k.cu\".\n");
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0].file, "/w/k.cpp");
  EXPECT_EQ(messages[0].line, 12u);
  EXPECT_TRUE(messages[0].is_error);
  EXPECT_EQ(messages[0].text, "identifier \"x\" is undefined");
  EXPECT_FALSE(messages[1].is_error);
  EXPECT_EQ(messages[1].line, 3u);
  EXPECT_EQ(messages[1].text, "variable \"y\" was declared but never referenced");
}

TEST(NvccMessages, ReadsThePreprocessorsForm) {
  const auto messages = parse_messages("dir (1)/a.hpp:7:3: error: #error \"no\"\n");
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].file, "dir (1)/a.hpp");
  EXPECT_EQ(messages[0].line, 7u);
  EXPECT_EQ(messages[0].text, "#error \"no\"");
}

TEST(NvccMessages, IgnoresLinesWithoutAPlace) {
  EXPECT_TRUE(parse_messages("nvcc fatal   : Unknown option '-x'\nerror: something\n(12): error: x\n").empty());
}

TEST(NvccMessages, LongLinesAreReadWithoutRecursion) {
  const std::string code(200000, 'a');
  const auto messages = parse_messages("k.cpp(1): error: expected a \";\" near " + code + "\n" +
                                       std::string(100000, ' ') + "\n");
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].text, "expected a \";\" near " + code);
}

TEST(NvccMessages, ReadsTheRelease) {
  EXPECT_EQ(release_of("Cuda compilation tools, release 13.0, V13.0.48\nBuild cuda_13.0"), "13.0");
  EXPECT_FALSE(release_of("no version here").has_value());
}

}  // namespace
}  // namespace carbide::nvcc
