// collective_sites: where a device function reaches a barrier or a warp collective, by calling it
// or by calling a helper that reaches one at any depth, and which arrival (block or warp) it needs.
#include "analysis/collective_sites.hpp"

#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using carbide::analysis::CollectiveSites;
using carbide::model::vocabulary::Arrival;
using namespace carbide::testing;

const char* const kHelpers = R"(
void leaf_sync() { carbide::block::sync(); }
void sync_when_positive(int k) { if (k > 0) leaf_sync(); }
float shuffled(float v) { return carbide::warp::shfl_down(v, 1u); }
float shuffles_then_syncs(float v) { v = carbide::warp::shfl_xor(v, 1u); carbide::block::sync(); return v; }
template <int N> void templated_sync() { if (N > 0) carbide::block::sync(); }
float plain(float v) { return v * 2.f + float(carbide::thread::thread_idx().x); }
void declared_only();
void defined_later();
)";

struct Sites {
  std::unique_ptr<clang::ASTUnit> ast;
  CollectiveSites sites;
  const clang::FunctionDecl* function(const std::string& name) const {
    const clang::FunctionDecl* found = function_named(ast->getASTContext(), name);
    EXPECT_TRUE(found) << name;
    return found;
  }
  std::string text_of(const clang::Stmt* statement) const { return text(ast->getASTContext(), statement); }
};

std::unique_ptr<Sites> sites_of(const std::string& code) {
  auto result = std::make_unique<Sites>();
  result->ast = parse(std::string(kHelpers) + code + "\nvoid defined_later() { carbide::block::sync(); }\n");
  EXPECT_TRUE(result->ast);
  EXPECT_FALSE(result->ast->getDiagnostics().hasErrorOccurred());
  return result;
}

TEST(CollectiveSites, CollectivesCalledInPlaceAreSitesInSourceOrder) {
  const auto s = sites_of("float f(float v) {\n"
                          "  carbide::block::sync();\n  v += carbide::warp::shfl_down(v, 2u);\n"
                          "  return carbide::warp::reduce_add(v);\n}");
  const auto& found = s->sites.in(s->function("f"));
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(s->text_of(found[0].call), "carbide::block::sync()");
  EXPECT_EQ(found[0].arrival, Arrival::Block);
  EXPECT_EQ(s->text_of(found[1].call), "carbide::warp::shfl_down(v, 2u)");
  EXPECT_EQ(found[1].arrival, Arrival::Warp);
  EXPECT_EQ(s->text_of(found[2].call), "carbide::warp::reduce_add(v)");
  EXPECT_EQ(found[2].arrival, Arrival::Warp);
  for (const auto& site : found) EXPECT_EQ(site.call, site.collective);
}

// A barrier hidden in a helper of a helper is held to the same rule as one written in place: the
// site is the caller's call, and it names the barrier it reaches.
TEST(CollectiveSites, ABarrierInANestedHelperIsReachedThroughTheCall) {
  const auto s = sites_of("void f() { sync_when_positive(3); }");
  const auto& found = s->sites.in(s->function("f"));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(s->text_of(found[0].call), "sync_when_positive(3)");
  const auto barrier = calls_of(s->function("leaf_sync"), "sync");
  ASSERT_EQ(barrier.size(), 1u);
  EXPECT_EQ(found[0].collective, barrier.front());
  EXPECT_EQ(found[0].arrival, Arrival::Block);
  // The helper between them has its own site, the call of the innermost helper.
  const auto& between = s->sites.in(s->function("sync_when_positive"));
  ASSERT_EQ(between.size(), 1u);
  EXPECT_EQ(s->text_of(between[0].call), "leaf_sync()");
}

TEST(CollectiveSites, AHelperWithOnlyAWarpCollectiveNeedsTheWarp) {
  const auto s = sites_of("float f(float v) { return shuffled(v); }");
  const auto& found = s->sites.in(s->function("f"));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].arrival, Arrival::Warp);
  EXPECT_EQ(s->text_of(found[0].collective), "carbide::warp::shfl_down(v, 1u)");
}

// The stronger requirement wins: a helper that also syncs the block needs the whole block, even
// when its warp collective comes first.
TEST(CollectiveSites, AHelperReachingBothNeedsTheBlock) {
  const auto s = sites_of("float f(float v) { return shuffles_then_syncs(v); }");
  const auto& found = s->sites.in(s->function("f"));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].arrival, Arrival::Block);
  EXPECT_EQ(s->text_of(found[0].collective), "carbide::block::sync()");
}

TEST(CollectiveSites, TemplateInstancesAndHelpersDefinedLaterAreFollowed) {
  const auto s = sites_of("void f() { templated_sync<2>(); defined_later(); }");
  const auto& found = s->sites.in(s->function("f"));
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(s->text_of(found[0].call), "templated_sync<2>()");
  EXPECT_EQ(s->text_of(found[1].call), "defined_later()");
  EXPECT_EQ(found[1].arrival, Arrival::Block);
}

// Calls that reach no collective (plain helpers, Carbide's other functions, a helper with no body
// in sight) are not sites.
TEST(CollectiveSites, CallsReachingNoCollectiveAreNotSites) {
  const auto s = sites_of("float f(float v) {\n"
                          "  declared_only();\n  v = plain(v) + float(carbide::thread::block_idx().x);\n"
                          "  return v;\n}");
  EXPECT_TRUE(s->sites.in(s->function("f")).empty());
}

// A lambda's body is part of the function, and calling the lambda reaches what its body does.
TEST(CollectiveSites, ALambdaBodyAndItsCallAreSites) {
  const auto s = sites_of("void f(int k) { auto step = [] { carbide::block::sync(); }; if (k > 0) step(); }");
  const auto& found = s->sites.in(s->function("f"));
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(s->text_of(found[0].call), "carbide::block::sync()");
  EXPECT_EQ(s->text_of(found[1].call), "step()");
  EXPECT_EQ(found[1].collective, found[0].call);
}

}  // namespace
