// --file-prefix-map: which paths are mapped, which entry wins, and that only #line directives
// change in generated text.
#include "codegen/file_prefix_map.hpp"

#include <gtest/gtest.h>

namespace carbide::codegen {
namespace {

TEST(FilePrefixMap, ParsesOldEqualsNew) {
  EXPECT_EQ(FilePrefixMap::parse("/a/b=."), std::make_pair(std::string("/a/b"), std::string(".")));
  EXPECT_EQ(FilePrefixMap::parse("/a=b=c"), std::make_pair(std::string("/a"), std::string("b=c")));
  EXPECT_EQ(FilePrefixMap::parse("/a="), std::make_pair(std::string("/a"), std::string("")));
  EXPECT_FALSE(FilePrefixMap::parse("/a"));
  EXPECT_FALSE(FilePrefixMap::parse("=x"));
}

TEST(FilePrefixMap, MapsWholeLeadingComponentsOnly) {
  FilePrefixMap map;
  map.add("/home/me/proj", ".");
  EXPECT_EQ(map.map("/home/me/proj/src/k.cpp"), "./src/k.cpp");
  EXPECT_EQ(map.map("/home/me/proj"), ".");
  EXPECT_EQ(map.map("/home/me/project/k.cpp"), "/home/me/project/k.cpp");  // not a component
  EXPECT_EQ(map.map("/elsewhere/k.cpp"), "/elsewhere/k.cpp");
  EXPECT_EQ(map.unmap("./src/k.cpp"), "/home/me/proj/src/k.cpp");
  EXPECT_EQ(map.unmap("other/k.cpp"), "other/k.cpp");
}

TEST(FilePrefixMap, TheLastMatchingEntryWins) {
  FilePrefixMap map;
  map.add("/w", "first");
  map.add("/w/one", "second");
  EXPECT_EQ(map.map("/w/one/k.cpp"), "second/k.cpp");
  EXPECT_EQ(map.map("/w/two/k.cpp"), "first/two/k.cpp");
}

TEST(FilePrefixMap, RewritesOnlyLineDirectives) {
  FilePrefixMap map;
  map.add("/w", ".");
  const std::string text = "#line 3 \"/w/k.cpp\"\nconst char* p = \"/w/k.cpp\";\n#line 9 \"gen.cu\"\nx";
  EXPECT_EQ(map.map_line_directives(text),
            "#line 3 \"./k.cpp\"\nconst char* p = \"/w/k.cpp\";\n#line 9 \"gen.cu\"\nx");
  EXPECT_EQ(FilePrefixMap().map_line_directives(text), text);
}

}  // namespace
}  // namespace carbide::codegen
