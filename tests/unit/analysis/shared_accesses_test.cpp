// shared_accesses: the accesses a barrier-free helper makes to arrays its caller passes, in the
// caller's terms (the helper's parameters standing for the arguments), through nested helpers;
// and the helpers that are not followed.
#include "analysis/shared_accesses.hpp"

#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using namespace carbide::testing;

const char* kHelpers =
    "using Tile = carbide::shared_array<float, 256>;\n"
    "void own(Tile t, const carbide::thread::local_index_witness& lid) { t[lid] = 1.f; }\n"
    "void at(Tile& t, unsigned slot) { t[slot] += 1.f; }\n"
    "void narrowed(Tile& t, unsigned short slot) { t[slot] = 0.f; }\n"
    "void computed(Tile& t, unsigned slot) { t[slot + 1] = 0.f; }\n"
    "void outer(Tile& t, unsigned slot) { at(t, slot); }\n"
    "void with_barrier(Tile& t, unsigned slot) { t[slot] = 0.f; carbide::block::sync(); }\n"
    "void calls_barrier(Tile& t, unsigned slot) { with_barrier(t, slot); }\n";

struct Parsed {
  std::unique_ptr<clang::ASTUnit> ast;
  const clang::FunctionDecl* f = nullptr;
};

Parsed parsed(const std::string& body) {
  Parsed result;
  result.ast = parse(std::string(kHelpers) + "void f(unsigned n) {\n  auto tile = carbide::block::shared<float, 256>();\n"
                     "  auto lid = carbide::thread::local_index();\n  const unsigned t = carbide::thread::thread_idx().x;\n" +
                     body + "\n}\n");
  EXPECT_TRUE(result.ast);
  result.f = function_named(result.ast->getASTContext(), "f");
  return result;
}

const clang::CallExpr* call_to(const Parsed& p, const std::string& name) {
  const auto calls = calls_of(p.f, name);
  EXPECT_EQ(calls.size(), 1u) << name;
  return calls.empty() ? nullptr : calls.front();
}

TEST(SharedAccesses, HelperIndexIsTheCallersArgument) {
  const Parsed p = parsed("own(tile, lid);\nat(tile, t + 3);");
  clang::ASTContext& context = p.ast->getASTContext();
  const auto own = carbide::analysis::helper_accesses(call_to(p, "own"));
  ASSERT_EQ(own.size(), 1u);
  EXPECT_EQ(text(context, own[0].handle), "tile");
  EXPECT_EQ(text(context, own[0].index), "lid");
  EXPECT_TRUE(own[0].use.writes);
  EXPECT_FALSE(own[0].use.reads);
  const auto at = carbide::analysis::helper_accesses(call_to(p, "at"));
  ASSERT_EQ(at.size(), 1u);
  EXPECT_EQ(text(context, at[0].index), "t + 3");
  EXPECT_TRUE(at[0].use.reads && at[0].use.writes);
}

TEST(SharedAccesses, NestedHelpersAreFollowed) {
  const Parsed p = parsed("outer(tile, t);");
  const auto found = carbide::analysis::helper_accesses(call_to(p, "outer"));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(text(p.ast->getASTContext(), found[0].index), "t");
}

// A conversion that may change the value, or an index the helper computes, has no form in
// the caller: the index stays the helper's own expression, in the helper's terms.
TEST(SharedAccesses, IndexWithoutACallerFormStaysInTheHelpersTerms) {
  const Parsed p = parsed("narrowed(tile, t);\ncomputed(tile, t);\nat(tile, t);");
  const clang::ASTContext& context = p.ast->getASTContext();
  for (const auto& [helper, index] : {std::pair{"narrowed", "slot"}, std::pair{"computed", "slot + 1"}}) {
    const auto found = carbide::analysis::helper_accesses(call_to(p, helper));
    ASSERT_EQ(found.size(), 1u) << helper;
    ASSERT_NE(found[0].index_in, nullptr) << helper;
    EXPECT_EQ(found[0].index_in->getName(), helper);
    EXPECT_EQ(text(context, found[0].index), index) << helper;
  }
  // An index that is the helper's parameter is the caller's argument, in the caller's terms.
  const auto at = carbide::analysis::helper_accesses(call_to(p, "at"));
  ASSERT_EQ(at.size(), 1u);
  EXPECT_EQ(at[0].index_in, nullptr);
}

TEST(SharedAccesses, HelpersThatReachABarrierAreNotInlined) {
  const Parsed p = parsed("with_barrier(tile, t);\ncalls_barrier(tile, t);\nown(tile, lid);");
  EXPECT_EQ(carbide::analysis::inlinable_helper(call_to(p, "with_barrier")), nullptr);
  EXPECT_EQ(carbide::analysis::inlinable_helper(call_to(p, "calls_barrier")), nullptr);
  EXPECT_NE(carbide::analysis::inlinable_helper(call_to(p, "own")), nullptr);
}

// The calls of lambdas in `f`, in source order (their callee is each closure's operator()).
std::vector<const clang::CallExpr*> lambda_calls(const Parsed& p) { return calls_of(p.f, "operator()"); }

// The variable an array handle names (a capture's handle is spelled at the capture default).
std::string array_named(const clang::Expr* handle) {
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(handle->IgnoreParenImpCasts());
  return ref ? ref->getDecl()->getNameAsString() : "";
}

// A lambda over the block's tile, held in a local that is only called: checked at each call, its
// parameter standing for the argument and its captured array for the caller's.
TEST(SharedAccesses, LambdasAreFollowedToTheirCalls) {
  const Parsed p = parsed("auto store = [&](unsigned slot, float v) { tile[slot] = v; };\n"
                          "store(t + 1, 2.f);\nstore(lid.get(), 3.f);");
  const clang::ASTContext& context = p.ast->getASTContext();
  const auto calls = lambda_calls(p);
  ASSERT_EQ(calls.size(), 2u);
  for (const auto& [call, index] : {std::pair{calls[0], "t + 1"}, std::pair{calls[1], "lid.get()"}}) {
    ASSERT_NE(carbide::analysis::followed_lambda(call), nullptr);
    ASSERT_NE(carbide::analysis::inlinable_helper(call), nullptr);
    const auto found = carbide::analysis::helper_accesses(call);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(array_named(found[0].handle), "tile");
    EXPECT_EQ(text(context, found[0].index), index);
    EXPECT_EQ(found[0].index_in, nullptr);
  }
}

// A captured index is the value it had when the lambda was made, not the variable's at the
// call: it stays in the lambda's terms. A helper the lambda passes its captured array to is
// followed with the caller's array.
TEST(SharedAccesses, CapturedIndexesStayInTheLambdasTerms) {
  const Parsed p = parsed("unsigned slot = t;\nauto store = [&tile, slot] { tile[slot] = 0.f; at(tile, slot); };\nslot = 0;\nstore();");
  const auto calls = lambda_calls(p);
  ASSERT_EQ(calls.size(), 1u);
  const auto found = carbide::analysis::helper_accesses(calls[0]);
  ASSERT_EQ(found.size(), 2u);
  for (const auto& access : found) {
    EXPECT_EQ(array_named(access.handle), "tile");
    EXPECT_NE(access.index_in, nullptr);
  }
}

// A captured constant cannot have changed since the lambda was made: it is the caller's value.
TEST(SharedAccesses, CapturedConstantsAreTheCallersValues) {
  const Parsed p = parsed("const unsigned mine = t;\nauto store = [&] { tile[mine] = 0.f; };\nstore();");
  const auto calls = lambda_calls(p);
  ASSERT_EQ(calls.size(), 1u);
  const auto found = carbide::analysis::helper_accesses(calls[0]);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index_in, nullptr);
  EXPECT_EQ(array_named(found[0].index), "mine");
}

// Lambdas whose calls are not all in sight, or that bring what the caller cannot check, stay where
// they are written (carbide-shared-race refuses their accesses there).
TEST(SharedAccesses, LambdasNotFollowed) {
  const std::vector<std::string> bodies = {
      // copied, then called through the copy
      "auto store = [&](unsigned s) { tile[s] = 0.f; };\nauto copy = store;\ncopy(t);",
      // generic
      "auto store = [&](auto s) { tile[s] = 0.f; };\nstore(t);",
      // reaches a barrier
      "auto store = [&](unsigned s) { tile[s] = 0.f; carbide::block::sync(); };\nstore(t);",
      // declares its own array
      "auto store = [&](unsigned s) { auto own = carbide::block::shared<float, 8>(); own[s % 8] = tile[s]; };\nstore(t);",
      // captures no array and reaches no dynamic memory
      "auto twice = [](unsigned s) { return 2 * s; };\ntwice(t);",
  };
  for (const std::string& body : bodies) {
    const Parsed p = parsed(body);
    const auto calls = lambda_calls(p);
    ASSERT_FALSE(calls.empty()) << body;
    EXPECT_EQ(carbide::analysis::followed_lambda(calls.back()), nullptr) << body;
  }
}

}  // namespace
