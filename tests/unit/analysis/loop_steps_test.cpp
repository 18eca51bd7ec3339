// loop_steps: which loops have moved a variable by the time of each use, and the shapes it
// refuses (a step that may be skipped, a jump out of the loop, two steps in one loop).
#include "analysis/loop_steps.hpp"

#include "analysis/thread_values.hpp"
#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using carbide::analysis::BlockShape;
using carbide::analysis::Step;
using carbide::analysis::SteppedValue;
using carbide::analysis::ThreadValues;
using namespace carbide::testing;

// The reads of `name` in `function`, in source order.
std::vector<const clang::DeclRefExpr*> reads_of(const clang::FunctionDecl* function, const std::string& name) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    std::string name;
    std::vector<const clang::DeclRefExpr*> found;
    bool VisitImplicitCastExpr(clang::ImplicitCastExpr* cast) {
      if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(cast->getSubExpr()->IgnoreParens());
          ref && cast->getCastKind() == clang::CK_LValueToRValue && ref->getDecl()->getNameAsString() == name)
        found.push_back(ref);
      return true;
    }
  } finder;
  finder.name = name;
  finder.TraverseStmt(function->getBody());
  return finder.found;
}

struct Parsed {
  std::unique_ptr<clang::ASTUnit> ast;
  const clang::FunctionDecl* f = nullptr;
  std::unique_ptr<ThreadValues> values;
};

Parsed parsed(const std::string& body) {
  Parsed result;
  result.ast = parse("void f(unsigned n) {\n" + body + "\n}\n");
  EXPECT_TRUE(result.ast);
  result.f = function_named(result.ast->getASTContext(), "f");
  result.values = std::make_unique<ThreadValues>(result.ast->getASTContext(), result.f, BlockShape{{256, 1, 1}});
  return result;
}

// Blelloch's `offset`: doubled in the up-sweep, halved in the down-sweep.
TEST(LoopSteps, BlellochOffsetAtEachUse) {
  const Parsed p = parsed(
      "int offset = 1;\n"
      "int before = offset;\n"
      "for (int d = 256; d > 0; d >>= 1) {\n"
      "  int in_up = offset;\n"
      "  offset *= 2;\n"
      "  int after_up = offset;\n"
      "}\n"
      "for (int d = 1; d < 512; d *= 2) {\n"
      "  offset >>= 1;\n"
      "  int in_down = offset;\n"
      "}\n"
      "int last = offset;");
  const auto uses = reads_of(p.f, "offset");
  ASSERT_EQ(uses.size(), 5u);
  std::vector<SteppedValue> at;
  for (const auto* use : uses) {
    auto value = carbide::analysis::stepped_value(*p.values, use);
    ASSERT_TRUE(value) << text(p.ast->getASTContext(), use);
    EXPECT_EQ(text(p.ast->getASTContext(), value->start), "1");
    at.push_back(*value);
  }
  EXPECT_TRUE(at[0].finished.empty());
  EXPECT_FALSE(at[0].current);
  ASSERT_TRUE(at[1].current);
  EXPECT_FALSE(at[1].after_step);
  EXPECT_EQ(at[1].current->step.kind, Step::Kind::ShiftLeft);
  EXPECT_EQ(at[1].current->step.amount, 1);
  ASSERT_TRUE(at[2].current);
  EXPECT_TRUE(at[2].after_step);
  ASSERT_EQ(at[3].finished.size(), 1u);
  EXPECT_EQ(at[3].finished[0].loop, at[1].current->loop);
  ASSERT_TRUE(at[3].current);
  EXPECT_TRUE(at[3].after_step);
  EXPECT_EQ(at[3].current->step.kind, Step::Kind::ShiftRight);
  EXPECT_EQ(at[4].finished.size(), 2u);
  EXPECT_FALSE(at[4].current);
}

// The odd-even merge sort's `stride`: stepped once in a plain block, then counting its own loop,
// which has no init (`for (; stride > 0; stride >>= 1)`).
TEST(LoopSteps, StepTakenOnceThenALoopCountingWithTheVariable) {
  const Parsed p = parsed(
      "unsigned stride = n / 2;\n"
      "{ unsigned first = stride; stride >>= 1; unsigned second = stride; }\n"
      "for (; stride > 0; stride >>= 1) { unsigned in_loop = stride; }");
  const auto uses = reads_of(p.f, "stride");
  ASSERT_EQ(uses.size(), 4u);  // first, second, the loop's test, in_loop
  const auto first = carbide::analysis::stepped_value(*p.values, uses[0]);
  const auto second = carbide::analysis::stepped_value(*p.values, uses[1]);
  const auto in_loop = carbide::analysis::stepped_value(*p.values, uses[3]);
  ASSERT_TRUE(first && second && in_loop);
  EXPECT_TRUE(first->finished.empty());
  ASSERT_EQ(second->finished.size(), 1u);
  EXPECT_EQ(second->finished[0].loop, nullptr);  // taken once
  EXPECT_EQ(second->finished[0].step.kind, Step::Kind::ShiftRight);
  ASSERT_EQ(in_loop->finished.size(), 1u);
  ASSERT_TRUE(in_loop->current);
  EXPECT_FALSE(in_loop->after_step);
  EXPECT_EQ(in_loop->current->step.kind, Step::Kind::ShiftRight);
}

TEST(LoopSteps, StepKinds) {
  const Parsed p = parsed(
      "unsigned u = 64; int i = 0;\n"
      "for (int k = 0; k < 4; ++k) { u /= 4; i -= 3; }\n"
      "unsigned a = u; int b = i;");
  const auto u = carbide::analysis::stepped_value(*p.values, reads_of(p.f, "u").back());
  // Two variables stepped in one loop, one step each.
  ASSERT_TRUE(u);
  EXPECT_EQ(u->finished.at(0).step.kind, Step::Kind::ShiftRight);
  EXPECT_EQ(u->finished.at(0).step.amount, 2);
  EXPECT_FALSE(u->finished.at(0).step.toward_zero);
  const auto i = carbide::analysis::stepped_value(*p.values, reads_of(p.f, "i").back());
  ASSERT_TRUE(i);
  EXPECT_EQ(i->finished.at(0).step.kind, Step::Kind::Add);
  EXPECT_EQ(i->finished.at(0).step.amount, -3);
}

// Shapes whose number of steps is not one per iteration, or not known.
TEST(LoopSteps, RefusesStepsThatMayBeSkippedOrRepeated) {
  const char* refused[] = {
      "int o = 1;\nfor (int d = 0; d < 8; ++d) { if (n > 3) o *= 2; }\nint x = o;",          // conditional
      "int o = 1;\nfor (int d = 0; d < 8; ++d) { if (n == d) break; o *= 2; }\nint x = o;",  // break
      "int o = 1;\nfor (int d = 0; d < 8; ++d) { o *= 2; o *= 2; }\nint x = o;",             // two steps
      "int o = 1;\nfor (int d = 0; d < 8; ++d) { o *= 3; }\nint x = o;",                     // not a shift
      "int o = 1;\nfor (int d = 0; d < 8; ++d) { d += 1; o *= 2; }\nint x = o;",             // counter moved twice
      "int o = 1;\nwhile (o < 64) { o *= 2; }\nint x = o;",                                  // no counter
      "int o = 1;\nif (n > 2) { for (int d = 0; d < 8; ++d) o *= 2; }\nint x = o;",          // loop in a branch
      "int o = 1;\nif (n > 2) { o *= 2; }\nint x = o;",                                       // once, in a branch
      "int o = 1;\n{ if (n > 2) goto skip; o *= 2; skip:; }\nint x = o;",                     // once, jumped over
      "int o = 64;\nfor (; o > 0; o >>= 1) {}\nint x = o;",                                   // after its own loop
      "int o = 64;\nfor (int d = 0; o > 0; o >>= 1) {}\nint x = o;",                          // another's loop
  };
  for (const char* body : refused) {
    const Parsed p = parsed(body);
    EXPECT_FALSE(carbide::analysis::stepped_value(*p.values, reads_of(p.f, "o").back())) << body;
  }
}

}  // namespace
