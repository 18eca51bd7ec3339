// ReachingDefinitions and ValueSets: which definitions reach a use on the CFG, and the few
// values a variable's definitions can produce (the double buffer of a Hillis-Steele scan).
#include "analysis/reaching_definitions.hpp"
#include "analysis/thread_values.hpp"
#include "analysis/value_sets.hpp"

#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using carbide::analysis::BlockShape;
using carbide::analysis::ThreadValues;
using carbide::analysis::ValueSets;
using namespace carbide::testing;

struct Function {
  std::unique_ptr<clang::ASTUnit> ast;
  const clang::FunctionDecl* function = nullptr;
  std::unique_ptr<ThreadValues> values;
  // The variable read on the left (or right) of the binary expression spelled `spelled`.
  const clang::DeclRefExpr* read_in(const std::string& spelled, bool right = false) const {
    const auto* op = llvm::dyn_cast_or_null<clang::BinaryOperator>(
        expr_spelled(ast->getASTContext(), function, spelled));
    const auto* ref = op ? llvm::dyn_cast<clang::DeclRefExpr>((right ? op->getRHS() : op->getLHS())->IgnoreParenImpCasts())
                         : nullptr;
    EXPECT_TRUE(ref) << spelled;
    return ref;
  }
  // The definitions reaching it, by their source text.
  std::vector<std::string> reaching(const std::string& spelled, bool right = false) const {
    const clang::DeclRefExpr* use = read_in(spelled, right);
    if (use == nullptr) return {"no such read"};
    std::vector<std::string> texts;
    auto sites = values->reaching_definitions(use);
    if (!sites) return {"unknown"};
    for (const clang::Stmt* site : *sites) texts.push_back(text(ast->getASTContext(), site));
    std::sort(texts.begin(), texts.end());
    return texts;
  }
  const clang::VarDecl* variable(const std::string& spelled) const {
    const clang::DeclRefExpr* use = read_in(spelled);
    return use ? llvm::cast<clang::VarDecl>(use->getDecl()) : nullptr;
  }
};

Function parsed(const std::string& body) {
  Function result;
  result.ast = parse("void f(unsigned n, int* out) {\n" + body + "\n}\n");
  EXPECT_TRUE(result.ast);
  result.function = function_named(result.ast->getASTContext(), "f");
  result.values = std::make_unique<ThreadValues>(result.ast->getASTContext(), result.function,
                                                 BlockShape{{256, 1, 1}});
  return result;
}

const std::string kDoubleBuffer =
    "int pout = 0, pin = 1;\n"
    "out[pout * 256] = 0;\n"
    "for (int offset = 1; offset < 256; offset *= 2) {\n"
    "  pout = 1 - pout;\n"
    "  pin = 1 - pout;\n"
    "  out[pin * 255 + offset] = out[pout * 254 + offset];\n"
    "}\n"
    "out[pout + 0] = 1;\n";

TEST(ReachingDefinitions, TheAssignmentJustAboveIsTheOnlyOneThatReaches) {
  auto f = parsed(kDoubleBuffer);
  EXPECT_EQ(f.reaching("pin * 255"), std::vector<std::string>{"pin = 1 - pout"});
  EXPECT_EQ(f.reaching("pout * 254"), std::vector<std::string>{"pout = 1 - pout"});
  EXPECT_EQ(f.reaching("pout * 256"), std::vector<std::string>{"0"});
}

// A step reads the variable before it defines it: `pos` of `pos += 256` is a use, reached by the
// definitions before the step and not by the step itself; the read after it is reached by the step.
TEST(ReachingDefinitions, AStepsTargetIsReadBeforeTheStep) {
  auto f = parsed("unsigned pos = 2 * n;\nout[pos] = 0;\npos += 256;\nout[pos + 1] = 1;\nfor (int k = 0; k < 4; ++k) pos *= 2;");
  EXPECT_EQ(f.reaching("pos += 256"), std::vector<std::string>{"2 * n"});
  EXPECT_EQ(f.reaching("pos + 1"), std::vector<std::string>{"pos += 256"});
  EXPECT_EQ(f.reaching("pos *= 2"), (std::vector<std::string>{"pos *= 2", "pos += 256"}));
}

TEST(ReachingDefinitions, TheLoopsBackEdgeBringsTheLastIterationsDefinition) {
  auto f = parsed(kDoubleBuffer);
  // `1 - pout` reads the initializer in the first iteration and the loop's own assignment after.
  EXPECT_EQ(f.reaching("1 - pout", /*right=*/true), (std::vector<std::string>{"0", "pout = 1 - pout"}));
  // After the loop: either no iteration ran, or the last one's assignment.
  EXPECT_EQ(f.reaching("pout + 0"), (std::vector<std::string>{"0", "pout = 1 - pout"}));
}

TEST(ReachingDefinitions, AVariableWhoseAddressEscapesHasNoAnswer) {
  auto f = parsed("int k = 0; int* p = &k; *p = 3; out[k + 0] = 0;");
  EXPECT_EQ(f.reaching("k + 0"), std::vector<std::string>{"unknown"});
}

TEST(ValueSets, ADoubleBufferHoldsZeroOrOne) {
  auto f = parsed(kDoubleBuffer);
  const ValueSets sets(*f.values);
  EXPECT_EQ(sets.of(f.variable("pout * 256")), (std::set<std::int64_t>{0, 1}));
  EXPECT_EQ(sets.of(f.variable("pin * 255")), (std::set<std::int64_t>{0, 1}));
}

TEST(ValueSets, ValuesFromOutsideOrTooManyHaveNoSet) {
  auto f = parsed(
      "int a = 0; int b = 0;\n"
      "for (int i = 0; i < 100; ++i) { a = int(n); b = b + 1; }\n"
      "out[a + 0] = 0; out[b + 0] = 0;");
  const ValueSets sets(*f.values);
  EXPECT_FALSE(sets.of(f.variable("a + 0")));  // reads a parameter
  EXPECT_FALSE(sets.of(f.variable("b + 0")));  // counts past the limit
}

}  // namespace
