// Names are data (docs/security.md): how a name is spelled into generated text, read back, and
// which names are refused before any tool sees them.
#include "codegen/file_prefix_map.hpp"
#include "codegen/generated_text.hpp"
#include "support/file_names.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace carbide {
namespace {

TEST(CStringLiteral, EscapesWhatCouldEndTheLiteralOrTheLine) {
  EXPECT_EQ(codegen::c_string_literal("/w/k.cpp"), "\"/w/k.cpp\"");
  EXPECT_EQ(codegen::c_string_literal("q\"uote"), "\"q\\\"uote\"");
  EXPECT_EQ(codegen::c_string_literal("back\\slash"), "\"back\\\\slash\"");
  EXPECT_EQ(codegen::c_string_literal("nl\n#error X\n"), "\"nl\\012#error X\\012\"");
  EXPECT_EQ(codegen::c_string_literal("tab\tdel\x7f"), "\"tab\\011del\\177\"");
  // Shell characters are plain text in C.
  EXPECT_EQ(codegen::c_string_literal("$(x) `y`;|&'"), "\"$(x) `y`;|&'\"");
  // UTF-8 stays readable; a byte that is not UTF-8 is escaped.
  EXPECT_EQ(codegen::c_string_literal("k\xc3\xa9rnel"), "\"k\xc3\xa9rnel\"");
  EXPECT_EQ(codegen::c_string_literal("bad\xff"), "\"bad\\377\"");
  // An octal escape has three digits, so a digit after it stays a digit.
  EXPECT_EQ(codegen::c_string_literal("\n1"), "\"\\0121\"");
}

TEST(CStringLiteral, ReadsBackWhatItWrote) {
  for (const std::string& name : std::vector<std::string>{"/w/k.cpp", "q\"uote", "back\\slash", "nl\n#error X\n", "\n1",
                                 "$(x) `y`", "bad\xff", std::string("nul\0in", 6)})
    EXPECT_EQ(codegen::parse_c_string_literal(codegen::c_string_literal(name)), name);
  EXPECT_FALSE(codegen::parse_c_string_literal("\"open"));
  EXPECT_FALSE(codegen::parse_c_string_literal("\"a\"b\""));
  EXPECT_FALSE(codegen::parse_c_string_literal("\"\\q\""));
}

TEST(LineDirective, NamesTheFileAsALiteral) {
  EXPECT_EQ(codegen::line_directive(12, "a\"b.cpp"), "#line 12 \"a\\\"b.cpp\"\n");
}

TEST(FilePrefixMap, MapsEscapedPathsInLineDirectives) {
  codegen::FilePrefixMap map;
  map.add("/w \"q\"", ".");
  const std::string text = codegen::line_directive(3, "/w \"q\"/k\n.cpp") + "x\n";
  EXPECT_EQ(map.map_line_directives(text), codegen::line_directive(3, "./k\n.cpp") + "x\n");
}

TEST(PrintableName, ShowsControlCharactersAsEscapes) {
  EXPECT_EQ(support::printable_name("a\nb\tc $(d)"), "a\\012b\\011c $(d)");
}

TEST(SourceNames, RefusesOnlyWhatCannotBeWritten) {
  for (const char* usable : {"/w/$(touch m).cpp", "/w/`x`.cpp", "/w/a;b|c&d.cpp", "/w/it's.cpp",
                             "/w/two words.cpp", "/w/-rf.cpp", "/w/k\xc3\xa9rnel.cpp", "/w/\"dir\"/k.cpp",
                             "/w/back\\slash/k.cpp"})
    EXPECT_EQ(support::unusable_source_path(usable), "") << usable;
  EXPECT_NE(support::unusable_source_path("/w/nl\n.cpp"), "");
  EXPECT_NE(support::unusable_source_path("/w/dir\n/k.cpp"), "");
  EXPECT_NE(support::unusable_source_path("/w/q\"uote.cpp"), "");
  EXPECT_NE(support::unusable_source_path("/w/back\\slash.cpp"), "");
  EXPECT_NE(support::unusable_source_path("/w/bad\xff.cpp"), "");
  EXPECT_EQ(support::unusable_output_dir("/o $(x) `y`"), "");
  EXPECT_NE(support::unusable_output_dir("/o\nx"), "");
}

TEST(NvccFlags, RefusesWhatNvccsShellWouldExpand) {
  for (const char* plain : {"-maxrregcount=64", "-DX=1", "-DNAME=a b", "-Xptxas=-v", "-DQ='s'"})
    EXPECT_EQ(support::unsafe_nvcc_flag(plain), "") << plain;
  for (const char* hostile : {"-DX=$(touch m)", "-DX=`touch m`", "-DX=\"q\"", "-DX=a\\b", "-DX=a\nb"})
    EXPECT_NE(support::unsafe_nvcc_flag(hostile), "") << hostile;
}

TEST(PlainPaths, AreWhatNvccMaySee) {
  EXPECT_TRUE(support::is_plain_path("/tmp/carbide_scratch-12-a1B2c3/module.carbide.cu"));
  EXPECT_FALSE(support::is_plain_path("/tmp/my dir/x"));
  EXPECT_FALSE(support::is_plain_path("/tmp/$x"));
}

}  // namespace
}  // namespace carbide
