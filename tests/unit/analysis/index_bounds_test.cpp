// index_bounds: the range an integer expression takes in every thread of a launch that keeps the
// contract (coordinates below the block, counters below their loop bounds), narrowed at a site
// by the conditions that hold there, and no range at all where a value is unknown or may wrap.
#include "analysis/index_bounds.hpp"

#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using carbide::analysis::BlockShape;
using carbide::analysis::IndexBounds;
using carbide::analysis::IndexRange;
using carbide::analysis::ThreadValues;
using namespace carbide::testing;

// A range as "[low, high]", or "none", so that a failing expectation shows both ranges.
std::string shown(const std::optional<IndexRange>& range) {
  if (!range) return "none";
  return "[" + std::to_string(static_cast<long long>(range->low)) + ", " +
         std::to_string(static_cast<long long>(range->high)) + "]";
}

struct Bounds {
  std::unique_ptr<clang::ASTUnit> ast;
  const clang::FunctionDecl* function = nullptr;
  std::unique_ptr<ThreadValues> values;
  std::unique_ptr<IndexBounds> bounds;

  const clang::Expr* expr(const std::string& spelled) const {
    const clang::Expr* found = expr_spelled(ast->getASTContext(), function, spelled);
    EXPECT_TRUE(found) << spelled;
    return found;
  }
  std::string range(const std::string& spelled) const {
    const clang::Expr* found = expr(spelled);
    return found ? shown(bounds->range(found)) : "not found";
  }
  // The range of the first expression spelled `spelled`, evaluated where it is written.
  std::string range_there(const std::string& spelled) const {
    const clang::Expr* found = expr(spelled);
    return found ? shown(bounds->range_at(found, found)) : "not found";
  }
};

// `body` as the body of `void f(unsigned n)`, with tx, ty, lid and lane declared, in blocks of
// `shape`.
Bounds bounds_of(const std::string& body, BlockShape shape) {
  Bounds result;
  result.ast = parse("void use(long long);\n"
                     "void f(unsigned n) {\n"
                     "  const unsigned tx = carbide::thread::thread_idx().x;\n"
                     "  const unsigned ty = carbide::thread::thread_idx().y;\n"
                     "  auto lid = carbide::thread::local_index();\n"
                     "  auto lane = carbide::thread::lane();\n" +
                     body + "\n}\n");
  EXPECT_TRUE(result.ast);
  result.function = function_named(result.ast->getASTContext(), "f");
  result.values = std::make_unique<ThreadValues>(result.ast->getASTContext(), result.function, shape);
  result.bounds = std::make_unique<IndexBounds>(*result.values);
  return result;
}

const BlockShape k32x8 = {{32, 8, 1}};
const BlockShape k256 = {{256, 1, 1}};

TEST(IndexBounds, ThreadCoordinatesStayBelowTheContractBlock) {
  const Bounds b = bounds_of("use(carbide::thread::thread_idx().z);\n"
                             "use(carbide::thread::block_dim().y);\n"
                             "use(tx); use(ty); use(lid.get()); use(lane.get());",
                             k32x8);
  EXPECT_EQ(b.range("tx"), "[0, 31]");
  EXPECT_EQ(b.range("ty"), "[0, 7]");
  EXPECT_EQ(b.range("carbide::thread::thread_idx().z"), "[0, 0]");
  EXPECT_EQ(b.range("carbide::thread::block_dim().y"), "[8, 8]");
  EXPECT_EQ(b.range("lid.get()"), "[0, 255]");
  EXPECT_EQ(b.range("lane.get()"), "[0, 31]");
}

// A helper no kernel with a contract reaches runs in blocks of any size: only constants are bounded.
TEST(IndexBounds, UnknownBlockBoundsNoCoordinate) {
  const Bounds b = bounds_of("use(tx); use(lid.get()); use(lane.get()); use(3 * 4 + 1);", BlockShape{});
  EXPECT_EQ(b.range("tx"), "none");
  EXPECT_EQ(b.range("lid.get()"), "none");
  EXPECT_EQ(b.range("lane.get()"), "none");
  EXPECT_EQ(b.range("3 * 4 + 1"), "[13, 13]");
}

TEST(IndexBounds, ArithmeticCombinesTheRangesOfItsOperands) {
  const Bounds b = bounds_of("use(ty * 32 + tx); use(tx / 4); use(tx % 5); use(tx >> 2); use(ty << 3);\n"
                             "use(tx & ty); use(int(ty) - 8); use(tx < 16 ? tx : 100u);",
                             k32x8);
  EXPECT_EQ(b.range("ty * 32 + tx"), "[0, 255]");
  EXPECT_EQ(b.range("tx / 4"), "[0, 7]");
  EXPECT_EQ(b.range("tx % 5"), "[0, 4]");
  EXPECT_EQ(b.range("tx >> 2"), "[0, 7]");
  EXPECT_EQ(b.range("ty << 3"), "[0, 56]");
  EXPECT_EQ(b.range("tx & ty"), "[0, 7]");
  EXPECT_EQ(b.range("int(ty) - 8"), "[-8, -1]");
  EXPECT_EQ(b.range("tx < 16 ? tx : 100u"), "[0, 100]");
}

// In unsigned arithmetic thread 0's `tx - 1` is 4294967295, not -1: no range covers both ends.
TEST(IndexBounds, UnsignedWrapAroundHasNoRange) {
  const Bounds b = bounds_of("use(tx - 1); use(tx - 1u + 1u); use(static_cast<unsigned char>(lid.get()));\n"
                             "use(int(tx) - 1); use(static_cast<unsigned char>(tx));",
                             {{512, 1, 1}});
  EXPECT_EQ(b.range("tx - 1"), "none");
  EXPECT_EQ(b.range("tx - 1u + 1u"), "none");
  EXPECT_EQ(b.range("static_cast<unsigned char>(lid.get())"), "none");  // 511 does not fit
  // The same values in a signed type, or converted to a type that holds them all, keep their range.
  EXPECT_EQ(b.range("int(tx) - 1"), "[-1, 510]");
  const Bounds small = bounds_of("use(static_cast<unsigned char>(tx));", k256);
  EXPECT_EQ(small.range("static_cast<unsigned char>(tx)"), "[0, 255]");
}

TEST(IndexBounds, ValuesReadFromMemoryOrReassignedHaveNoRange) {
  const Bounds b = bounds_of("auto tile = carbide::block::shared<unsigned, 256>();\n"
                             "use(tile[tx]); use(n); use(n + tx);\n"
                             "unsigned moved = tx; moved *= 9; use(moved);\n"
                             "unsigned pointed = tx; unsigned* p = &pointed; *p = n; use(pointed);\n"
                             "unsigned kept = tx + 1; use(kept);",
                             k256);
  EXPECT_EQ(b.range("tile[tx]"), "none");
  EXPECT_EQ(b.range("n"), "none");
  EXPECT_EQ(b.range("n + tx"), "none");
  EXPECT_EQ(b.range("moved"), "none");
  EXPECT_EQ(b.range("pointed"), "none");
  // Only read after its declaration: its initializer's range.
  EXPECT_EQ(b.range("kept"), "[1, 256]");
}

// A mask or an unsigned modulus bounds a value nothing else bounds; a signed modulus of an
// unknown value may be negative.
TEST(IndexBounds, MaskAndUnsignedModulusBoundAnUnknownValue) {
  const Bounds b = bounds_of("use(n & 15u); use(n % 8u); use(int(n) % 8); use(std::min(n, 7u)); use(n | 1u);",
                             k256);
  EXPECT_EQ(b.range("n & 15u"), "[0, 15]");
  EXPECT_EQ(b.range("n % 8u"), "[0, 7]");
  EXPECT_EQ(b.range("int(n) % 8"), "none");
  EXPECT_EQ(b.range("std::min(n, 7u)"), "[0, 7]");
  EXPECT_EQ(b.range("n | 1u"), "none");
}

TEST(IndexBounds, LoopCountersStayWithinTheirConditions) {
  const Bounds b = bounds_of("for (unsigned k = 0; k < 32; ++k) use(k + 0);\n"
                             "for (unsigned e = 0; e <= 32; e += 4) use(e + 0);\n"
                             "for (unsigned s = 128; s > 0; s >>= 1) use(s + 0);\n"
                             "for (unsigned d = 1; d < 256; d *= 2) use(d + 0);\n"
                             "for (unsigned g = tx; g < 1000; g += 256) use(g + 0);",
                             k256);
  EXPECT_EQ(b.range("k + 0"), "[0, 31]");
  EXPECT_EQ(b.range("e + 0"), "[0, 32]");
  EXPECT_EQ(b.range("s + 0"), "[1, 128]");
  EXPECT_EQ(b.range("d + 0"), "[1, 255]");
  EXPECT_EQ(b.range("g + 0"), "[0, 999]");
}

// A counter with one start value and a constant step stops at its last value below the bound.
TEST(IndexBounds, ASteppedCounterEndsAtItsLastValue) {
  const Bounds b = bounds_of("for (unsigned t = 0; t < 32; t += 16) use(t + 0);\n"
                             "for (int f = 3; f < 30; f += 8) use(f + 0);\n"
                             "for (unsigned w = tx; w < 32; w += 16) use(w + 0);",
                             k256);
  EXPECT_EQ(b.range("t + 0"), "[0, 16]");
  EXPECT_EQ(b.range("f + 0"), "[3, 27]");
  EXPECT_EQ(b.range("w + 0"), "[0, 31]");  // the start differs between threads
}

// A counter its body moves, or that a step past its bound would wrap, is not bounded by the
// loop's condition.
TEST(IndexBounds, CountersTheConditionDoesNotBoundHaveNoRange) {
  const Bounds b = bounds_of("for (unsigned k = 0; k < 32; ++k) { k += 2; use(k + 0); }\n"
                             "for (unsigned j = 0; j < 32; j += n) use(j + 0);\n"
                             "for (unsigned i = 0; i != 32; ++i) use(i + 0);\n"
                             "for (unsigned char c = 0; c <= 255; ++c) use(c + 0);\n"
                             "for (unsigned h = 0; h < n; ++h) use(h + 0);\n"
                             "for (unsigned z = 0; z < 64; z *= 2) use(z + 0);",
                             k256);
  EXPECT_EQ(b.range("k + 0"), "none");
  EXPECT_EQ(b.range("j + 0"), "none");
  EXPECT_EQ(b.range("i + 0"), "none");
  EXPECT_EQ(b.range("c + 0"), "none");  // 255 + 1 is 0 again: the loop never ends
  EXPECT_EQ(b.range("h + 0"), "none");
  EXPECT_EQ(b.range("z + 0"), "none");  // doubling 0 stays 0
}

TEST(IndexBounds, ConditionsAtTheSiteNarrowTheRange) {
  const Bounds b = bounds_of("if (tx < 16) use(tx + 240);\n"
                             "if (!(ty >= 2) && tx > 3) use(ty * 32 + tx);\n"
                             "use(lane.get() < 4 ? lane.get() * 2 : 0u);\n"
                             "if (tx < 16) {} else use(tx + 0);",
                             k32x8);
  EXPECT_EQ(b.range("tx + 240"), "[240, 271]");
  EXPECT_EQ(b.range_there("tx + 240"), "[240, 255]");
  EXPECT_EQ(b.range_there("ty * 32 + tx"), "[4, 63]");
  EXPECT_EQ(b.range_there("lane.get() * 2"), "[0, 6]");
  EXPECT_EQ(b.range_there("tx + 0"), "[16, 31]");
}

// Only a condition that holds on every way to the site narrows: one side of an `||`, a test the
// site does not depend on, or a failed unsigned test of a signed value (`shifted >= 8u` fails for
// shifted = -8 as well as 7) says nothing.
// A condition's fact is matched by the subject's shape, so it must not outlive a change to
// what the subject reads: after `x += 1u`, `x & 7u` is no longer below 4.
TEST(IndexBounds, AConditionSaysNothingOnceItsSubjectChanges) {
  const Bounds changed = bounds_of("unsigned x = n;\nif ((x & 7u) < 4u) { x += 1u; use(0u + (x & 7u)); }", {{256, 1, 1}});
  EXPECT_EQ(changed.range_there("0u + (x & 7u)"), "[0, 7]");
  const Bounds kept = bounds_of("const unsigned x = n;\nif ((x & 7u) < 4u) use(0u + (x & 7u));", {{256, 1, 1}});
  EXPECT_EQ(kept.range_there("0u + (x & 7u)"), "[0, 3]");
}

TEST(IndexBounds, ConditionsThatNeedNotHoldDoNotNarrow) {
  const Bounds b = bounds_of("if (tx < 16 || ty < 2) use(tx + 240);\n"
                             "if (tx < 4) use(1); use(tx * 2);\n"
                             "const int shifted = int(tx) - 8;\n"
                             "if (!(shifted >= 8u)) use(shifted + 0);",
                             k32x8);
  EXPECT_EQ(b.range_there("tx + 240"), "[240, 271]");
  EXPECT_EQ(b.range_there("tx * 2"), "[0, 62]");
  EXPECT_EQ(b.range_there("shifted + 0"), "[-8, 23]");
}

TEST(IndexBounds, LocalWitnessSubscriptReachesEveryThreadsSlot) {
  const Bounds b = bounds_of("auto tile = carbide::block::shared<float, 256>();\n"
                             "tile[lid] = 0.f;",
                             k32x8);
  const auto accesses = calls_of(b.function, "operator[]");
  ASSERT_EQ(accesses.size(), 1u);
  EXPECT_EQ(shown(b.bounds->subscript_range(accesses[0]->getArg(1), accesses[0])), "[0, 255]");
  const Bounds unknown = bounds_of("auto tile = carbide::block::shared<float, 256>();\n"
                                   "tile[lid] = 0.f;",
                                   BlockShape{});
  const auto unknown_accesses = calls_of(unknown.function, "operator[]");
  ASSERT_EQ(unknown_accesses.size(), 1u);
  EXPECT_EQ(shown(unknown.bounds->subscript_range(unknown_accesses[0]->getArg(1), unknown_accesses[0])),
            "none");
}

}  // namespace
