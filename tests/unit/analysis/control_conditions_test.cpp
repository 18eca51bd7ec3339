// ControlConditions: the branches a statement runs under, from the CFG, for the statement shapes
// a syntax walk misses (multi-statement early returns, break, continue, switch) and with the
// outcome only where it is a fact at the statement.
#include "analysis/control_conditions.hpp"

#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using carbide::analysis::ControlCondition;
using carbide::analysis::ControlConditions;
using namespace carbide::testing;

struct Conditions {
  std::unique_ptr<clang::ASTUnit> ast;
  std::vector<ControlCondition> of_sync;  // the conditions of the first block::sync()
  std::string text_of(const clang::Stmt* statement) const { return text(ast->getASTContext(), statement); }
};

Conditions conditions_of_sync(const std::string& body) {
  Conditions result;
  result.ast = parse("void f(unsigned n, int* out) {\n"
                     "  const unsigned t = carbide::thread::local_index().get();\n" + body + "\n}\n");
  EXPECT_TRUE(result.ast);
  clang::ASTContext& context = result.ast->getASTContext();
  const clang::FunctionDecl* function = function_named(context, "f");
  const auto syncs = calls_of(function, "sync");
  EXPECT_FALSE(syncs.empty());
  ControlConditions control(context, function);
  EXPECT_TRUE(control.available());
  result.of_sync = control.conditions_for(syncs.front());
  return result;
}

TEST(ControlConditions, EarlyReturnWithSeveralStatements) {
  auto c = conditions_of_sync("if (t >= n) { *out = 0; return; }\ncarbide::block::sync();");
  ASSERT_EQ(c.of_sync.size(), 1u);
  EXPECT_EQ(c.text_of(c.of_sync[0].expr), "t >= n");
  EXPECT_FALSE(c.of_sync[0].encloses);
  ASSERT_TRUE(c.of_sync[0].exit);
  EXPECT_TRUE(llvm::isa<clang::ReturnStmt>(c.of_sync[0].exit));
  EXPECT_EQ(c.of_sync[0].holds, std::optional<bool>(false));  // a fact: t < n at the barrier
}

TEST(ControlConditions, ReturnInTheElseBranch) {
  auto c = conditions_of_sync("if (t < n) { *out = 1; } else return;\ncarbide::block::sync();");
  ASSERT_EQ(c.of_sync.size(), 1u);
  EXPECT_EQ(c.text_of(c.of_sync[0].expr), "t < n");
  EXPECT_FALSE(c.of_sync[0].encloses);
}

TEST(ControlConditions, ContinueBeforeTheBarrierInALoop) {
  auto c = conditions_of_sync(
      "for (unsigned s = 0; s < 8; ++s) {\n  if (t < s) continue;\n  carbide::block::sync();\n}");
  std::vector<std::string> tests;
  for (const ControlCondition& condition : c.of_sync) tests.push_back(c.text_of(condition.expr));
  ASSERT_EQ(tests, (std::vector<std::string>{"t < s", "s < 8"}));
  EXPECT_TRUE(llvm::isa<clang::ContinueStmt>(c.of_sync[0].exit));
  EXPECT_TRUE(c.of_sync[1].encloses);
  EXPECT_EQ(c.of_sync[1].holds, std::optional<bool>(true));
}

TEST(ControlConditions, BreakBeforeTheBarrierInALoop) {
  auto c = conditions_of_sync(
      "for (unsigned s = 0; s < 8; ++s) {\n  if (t == s) break;\n  carbide::block::sync();\n}");
  ASSERT_FALSE(c.of_sync.empty());
  EXPECT_EQ(c.text_of(c.of_sync[0].expr), "t == s");
  EXPECT_TRUE(llvm::isa<clang::BreakStmt>(c.of_sync[0].exit));
}

TEST(ControlConditions, SwitchCaseHasNoSingleOutcome) {
  auto c = conditions_of_sync("switch (t % 4) {\n  case 1: carbide::block::sync(); break;\n  default: break;\n}");
  ASSERT_EQ(c.of_sync.size(), 1u);
  EXPECT_EQ(c.text_of(c.of_sync[0].expr), "t % 4");
  EXPECT_FALSE(c.of_sync[0].holds.has_value());
}

TEST(ControlConditions, NestedBranchesInnermostFirst) {
  auto c = conditions_of_sync("if (n > 4) {\n  if (t < 16) carbide::block::sync();\n}");
  ASSERT_EQ(c.of_sync.size(), 2u);
  EXPECT_EQ(c.text_of(c.of_sync[0].expr), "t < 16");
  EXPECT_EQ(c.text_of(c.of_sync[1].expr), "n > 4");
  EXPECT_EQ(c.of_sync[0].holds, std::optional<bool>(true));
}

TEST(ControlConditions, LoopExitIsNoFactAfterABreak) {
  // After the loop, s >= 8 holds only for threads that did not break out.
  auto c = conditions_of_sync(
      "unsigned s = 0;\nfor (; s < 8; ++s) { if (t == s) return; if (n == s) break; }\ncarbide::block::sync();");
  for (const ControlCondition& condition : c.of_sync)
    if (c.text_of(condition.expr) == "s < 8") EXPECT_FALSE(condition.holds.has_value());
}

TEST(ControlConditions, UnconditionalBarrierHasNone) {
  auto c = conditions_of_sync("if (t < 4) { *out = 1; }\ncarbide::block::sync();");
  EXPECT_TRUE(c.of_sync.empty());
}

}  // namespace

namespace {

// Whether each block::sync() of `f<4>`'s instance is reachable, in source order.
std::vector<bool> syncs_reachable_in_instance(const std::string& body) {
  auto ast = parse("template <int B>\nvoid f(unsigned n) {\n" + body + "\n}\ntemplate void f<4>(unsigned);\n");
  EXPECT_TRUE(ast);
  if (!ast) return {};
  clang::ASTContext& context = ast->getASTContext();
  const clang::FunctionDecl* instance = nullptr;
  for (const clang::Decl* decl : context.getTranslationUnitDecl()->decls())
    if (const auto* pattern = llvm::dyn_cast<clang::FunctionTemplateDecl>(decl))
      for (const clang::FunctionDecl* specialization : pattern->specializations()) instance = specialization;
  EXPECT_TRUE(instance);
  if (!instance) return {};
  const ControlConditions control(context, instance);
  std::vector<bool> reachable;
  for (const clang::CallExpr* sync : calls_of(instance, "sync")) reachable.push_back(control.reachable(sync));
  return reachable;
}

}  // namespace

TEST(ControlConditions, AConstantFalseBranchOfATemplateInstanceIsUnreachable) {
  EXPECT_EQ(syncs_reachable_in_instance("if (B >= 8) carbide::block::sync();\n"
                                        "if (B >= 2) carbide::block::sync();\n"
                                        "if (n > 3) carbide::block::sync(); else carbide::block::sync();\n"
                                        "B > 4 ? carbide::block::sync() : carbide::block::sync();"),
            (std::vector<bool>{false, true, true, true, false, true}));
}
