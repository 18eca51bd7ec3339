// ViewClaimFinder's whole-chunk facts: which claims store whole chunks (so the launch checks the
// view's length), followed through helpers, and which whole stores nothing accounts for.
#include "analysis/view_claims.hpp"

#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using namespace carbide;
using namespace carbide::testing;

struct Claims {
  std::unique_ptr<clang::ASTUnit> ast;
  std::unique_ptr<analysis::ViewClaimFinder> finder;
  const clang::FunctionDecl* kernel = nullptr;
  // The whole-chunk extent of each claim the kernel makes of its parameter `name`.
  std::vector<std::optional<std::uint64_t>> whole_chunks(const std::string& name) {
    std::vector<std::optional<std::uint64_t>> found;
    for (const auto& [view, claims] : finder->claims_of(kernel))
      if (view->getNameAsString() == name)
        for (const analysis::ViewClaim& claim : claims) found.push_back(claim.whole_chunk);
    return found;
  }
  std::vector<std::string> untraced() {
    std::vector<std::string> found;
    for (const clang::Expr* store : finder->untraced_whole_stores(kernel)) found.push_back(text(ast->getASTContext(), store));
    return found;
  }
};

Claims claims_of(const std::string& body, const std::string& helpers = "") {
  Claims claims;
  claims.ast = parse("namespace k {\n" + helpers +
                     "\nvoid f(carbide::disjoint_span<float> out, carbide::disjoint_span<float> other) {\n"
                     "  auto idx = carbide::thread::index_1d();\n  carbide::vec<float, 4> v{};\n" +
                     body + "\n}\n}\n");
  EXPECT_TRUE(claims.ast);
  claims.kernel = function_named(claims.ast->getASTContext(), "f");
  claims.finder = std::make_unique<analysis::ViewClaimFinder>(claims.ast->getASTContext());
  return claims;
}

using Extents = std::vector<std::optional<std::uint64_t>>;

TEST(WholeChunkClaims, AStoreWholeMarksTheClaimItsChunkCameFrom) {
  Claims c = claims_of(
      "if (auto mine = out.get_mut_chunk<4>(idx)) mine.store_whole(v);\n"
      "if (auto theirs = other.get_mut_chunk<4>(idx)) theirs.store(v);");
  EXPECT_EQ(c.whole_chunks("out"), Extents{4u});
  EXPECT_EQ(c.whole_chunks("other"), Extents{std::nullopt});
  EXPECT_TRUE(c.untraced().empty());
}

TEST(WholeChunkClaims, StridedChunksAndTemporaries) {
  Claims c = claims_of(
      "auto mine = out.get_mut_strided_chunks<2, 4>(idx);\n"
      "carbide::vec<float, 2> pair{};\n"
      "mine.store_whole(3, pair);\n"
      "other.get_mut_chunk<4>(idx).store_whole(v);");
  EXPECT_EQ(c.whole_chunks("out"), Extents{2u});
  EXPECT_EQ(c.whole_chunks("other"), Extents{4u});
}

TEST(WholeChunkClaims, FollowedThroughHelpers) {
  Claims c = claims_of("fill(out, idx);",
                       "void fill(carbide::disjoint_span<float> target, const carbide::thread::index_1d_witness& at) {\n"
                       "  carbide::vec<float, 8> w{};\n"
                       "  if (auto piece = target.get_mut_chunk<8>(at)) piece.store_whole(w);\n}\n");
  EXPECT_EQ(c.whole_chunks("out"), Extents{8u});
}

TEST(WholeChunkClaims, StoresNothingAccountsFor) {
  Claims c = claims_of(
      "if (auto mine = out.get_mut_chunk<4>(idx)) put(mine, v);\n"
      "struct Holder { carbide::disjoint_span<float> view; } held{other};\n"
      "fill(held.view, idx);",
      "void put(const carbide::chunk_mut<float, 4>& chunk, const carbide::vec<float, 4>& v) { chunk.store_whole(v); }\n"
      "void fill(carbide::disjoint_span<float> target, const carbide::thread::index_1d_witness& at) {\n"
      "  carbide::vec<float, 4> w{};\n"
      "  if (auto piece = target.get_mut_chunk<4>(at)) piece.store_whole(w);\n}\n");
  // The chunk put() stores into came from a parameter; the kernel's call cannot name the view.
  EXPECT_EQ(c.untraced(), std::vector<std::string>{"fill(held.view, idx)"});
  const clang::FunctionDecl* put = function_named(c.ast->getASTContext(), "put");
  ASSERT_TRUE(put);
  ASSERT_EQ(c.finder->untraced_whole_stores(put).size(), 1u);
  EXPECT_EQ(text(c.ast->getASTContext(), c.finder->untraced_whole_stores(put)[0]), "chunk.store_whole(v)");
  EXPECT_EQ(c.whole_chunks("out"), Extents{std::nullopt});
}

}  // namespace
