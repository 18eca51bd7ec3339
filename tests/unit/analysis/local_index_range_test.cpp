// local_index_range: the bounds, the single value and the residue that the conditions around an
// access give the flat local index L of the threads that make it, and whether two affine shared
// indexes can name one slot from two different threads.
#include "analysis/local_index_range.hpp"

#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using carbide::analysis::Affine;
using carbide::analysis::BlockShape;
using carbide::analysis::LocalRange;
using carbide::analysis::ThreadValues;
using namespace carbide::testing;

// The distinct constant bounds among `bounds`, sorted (a condition seen twice, as the `&&` and as
// the `if` that holds it, may give one bound twice); a bound in terms of other values is left out.
std::vector<std::int64_t> constant_bounds(const std::vector<Affine>& bounds) {
  std::vector<std::int64_t> constants;
  for (const Affine& bound : bounds)
    if (bound.is_constant()) constants.push_back(bound.constant);
  std::sort(constants.begin(), constants.end());
  constants.erase(std::unique(constants.begin(), constants.end()), constants.end());
  return constants;
}

struct Accesses {
  std::unique_ptr<clang::ASTUnit> ast;
  const clang::FunctionDecl* function = nullptr;
  std::unique_ptr<ThreadValues> values;
  std::vector<const clang::CallExpr*> subscripts;  // the `s[...]` in source order

  LocalRange range(std::size_t nth) const { return local_range_for(*values, subscripts.at(nth)); }
  std::optional<Affine> index(std::size_t nth) const {
    return index_form(*values, subscripts.at(nth)->getArg(1));
  }
  // Whether subscripts `first` and `second` provably never name one slot from two threads.
  bool distinct(std::size_t first, std::size_t second) const {
    const auto a = index(first), b = index(second);
    EXPECT_TRUE(a && b) << "no affine form";
    return a && b &&
           distinct_for_different_threads(*a, range(first), *b, range(second), values->shape());
  }
};

// `body` in `void f(unsigned n)`, with the shared array s, lid, lane, its value t, and the
// coordinates tx and ty declared, in blocks of `shape`.
Accesses accesses_of(const std::string& body, BlockShape shape = {{256, 1, 1}}) {
  Accesses result;
  result.ast = parse("void f(unsigned n) {\n"
                     "  auto s = carbide::block::shared<unsigned, 4096>();\n"
                     "  auto lid = carbide::thread::local_index();\n"
                     "  auto lane = carbide::thread::lane();\n"
                     "  const unsigned t = lid.get();\n"
                     "  const unsigned tx = carbide::thread::thread_idx().x;\n"
                     "  const unsigned ty = carbide::thread::thread_idx().y;\n"
                     "  unsigned v = 0;\n" +
                     body + "\n  (void)v;\n}\n");
  EXPECT_TRUE(result.ast);
  result.function = function_named(result.ast->getASTContext(), "f");
  result.values = std::make_unique<ThreadValues>(result.ast->getASTContext(), result.function, shape);
  result.subscripts = calls_of(result.function, "operator[]");
  return result;
}

TEST(LocalIndexRange, WithoutConditionsEveryThreadOfTheBlock) {
  const Accesses a = accesses_of("s[t] = 1;", {{32, 8, 1}});
  const LocalRange range = a.range(0);
  EXPECT_EQ(constant_bounds(range.lower), std::vector<std::int64_t>{0});
  EXPECT_EQ(constant_bounds(range.upper), std::vector<std::int64_t>{256});
  EXPECT_FALSE(range.equal);
  EXPECT_EQ(range.modulus, 1);
}

TEST(LocalIndexRange, ConditionsBoundTheLocalIndex) {
  const Accesses a = accesses_of("if (t < 32) s[t] = 1;\n"
                                 "if (t < 32) {} else s[t] = 2;\n"
                                 "if (t >= 64 && t <= 127) s[t] = 3;\n"
                                 "if (!(40 > t)) s[t] = 4;\n"
                                 "if (t + 8 < 100) s[t] = 5;");
  EXPECT_EQ(constant_bounds(a.range(0).upper), (std::vector<std::int64_t>{32, 256}));
  EXPECT_EQ(constant_bounds(a.range(1).lower), (std::vector<std::int64_t>{0, 32}));
  EXPECT_EQ(constant_bounds(a.range(2).lower), (std::vector<std::int64_t>{0, 64}));
  EXPECT_EQ(constant_bounds(a.range(2).upper), (std::vector<std::int64_t>{128, 256}));
  EXPECT_EQ(constant_bounds(a.range(3).lower), (std::vector<std::int64_t>{0, 40}));
  EXPECT_EQ(constant_bounds(a.range(4).upper), (std::vector<std::int64_t>{92, 256}));
}

// `if (t < 32 || t > 200)` lets both ends of the block in: neither side bounds L.
TEST(LocalIndexRange, ConditionsThatNeedNotHoldDoNotBound) {
  const Accesses a = accesses_of("if (t < 32 || t > 200) s[t] = 1;\n"
                                 "if (t < 16) v = 1; s[t] = 2;\n"
                                 "if (t != 5) s[t] = 3;");
  for (std::size_t nth = 0; nth < 3; ++nth) {
    EXPECT_EQ(constant_bounds(a.range(nth).lower), std::vector<std::int64_t>{0}) << nth;
    EXPECT_EQ(constant_bounds(a.range(nth).upper), std::vector<std::int64_t>{256}) << nth;
    EXPECT_FALSE(a.range(nth).equal) << nth;
  }
}

TEST(LocalIndexRange, EqualityPinsOneThreadAndLaneTestsGiveAResidue) {
  const Accesses a = accesses_of("if (t == 7) s[0] = 1;\n"
                                 "if (lane.get() == 0) s[t / 32] = 2;\n"
                                 "if (t % 64 == 3) s[t] = 3;\n"
                                 "if (t / 32 == 2) s[t] = 4;");
  EXPECT_EQ(a.range(0).equal, 7);
  EXPECT_EQ(a.range(1).modulus, 32);
  EXPECT_EQ(a.range(1).residue, 0);
  EXPECT_EQ(a.range(2).modulus, 64);
  EXPECT_EQ(a.range(2).residue, 3);
  // A warp's bucket: L in [64, 96).
  EXPECT_EQ(constant_bounds(a.range(3).lower), (std::vector<std::int64_t>{0, 64}));
  EXPECT_EQ(constant_bounds(a.range(3).upper), (std::vector<std::int64_t>{96, 256}));
}

TEST(LocalIndexRange, IndexFormsAreAffineInTheLocalIndex) {
  const Accesses a = accesses_of("s[lid] = 1; s[2 * t + 5] = 2; s[t / 32] = 3; s[7] = 4; s[n] = 5;");
  const auto witness = a.index(0);
  ASSERT_TRUE(witness);
  EXPECT_EQ(witness->local, 1);
  EXPECT_EQ(witness->constant, 0);
  const auto scaled = a.index(1);
  ASSERT_TRUE(scaled);
  EXPECT_EQ(scaled->local, 2);
  EXPECT_EQ(scaled->constant, 5);
  const auto warp = a.index(2);
  ASSERT_TRUE(warp);
  EXPECT_EQ(warp->local, 1);
  EXPECT_EQ(warp->divisor, 32);
  const auto constant = a.index(3);
  ASSERT_TRUE(constant);
  EXPECT_TRUE(constant->is_constant());
  EXPECT_EQ(constant->constant, 7);
  // A helper's parameter is whatever each thread passes: no form, so no slot is claimed for it.
  EXPECT_FALSE(a.index(4));
}

TEST(LocalIndexRange, AffineIndexesOfDifferentThreadsAreDistinct) {
  // Each thread its own slot; even and odd slots; the two halves of a reduction step.
  EXPECT_TRUE(accesses_of("s[t] = 1; v = s[t];").distinct(0, 1));
  EXPECT_TRUE(accesses_of("s[2 * t] = 1; v = s[2 * t + 1];").distinct(0, 1));
  EXPECT_TRUE(accesses_of("if (t < 128) s[t] += s[t + 128];").distinct(0, 1));
  EXPECT_TRUE(accesses_of("s[lid] = 1; v = s[t];").distinct(0, 1));
}

TEST(LocalIndexRange, IndexesThatMeetAreNotDistinct) {
  // Thread t + 1 writes the slot thread t reads.
  EXPECT_FALSE(accesses_of("s[t] = 1; v = s[t + 1];").distinct(0, 1));
  // Without the condition thread 130's write is thread 2's read.
  EXPECT_FALSE(accesses_of("s[t] = 1; v = s[t + 128];").distinct(0, 1));
  // Threads 0 and 1 both write slot 0.
  EXPECT_FALSE(accesses_of("s[t / 2] = 1;").distinct(0, 0));
  EXPECT_FALSE(accesses_of("s[2 * t] = 1; v = s[2 * t + 2];").distinct(0, 1));
}

// t % 128 has no affine form: threads t and t + 128 share its slot, and nothing is claimed.
TEST(LocalIndexRange, ModulusHasNoAffineForm) {
  const Accesses a = accesses_of("s[t % 128] = 1;");
  EXPECT_FALSE(a.index(0));
}

// `partial[lid / 32]` written by lane 0 only: one thread per warp, one slot per warp.
TEST(LocalIndexRange, OneSlotPerWarpWhenOnlyOneLaneWrites) {
  EXPECT_TRUE(accesses_of("if (lane.get() == 0) s[t / 32] = 1;").distinct(0, 0));
  EXPECT_TRUE(accesses_of("if (t % 32 == 5) s[t / 32] = 1;").distinct(0, 0));
  EXPECT_FALSE(accesses_of("s[t / 32] = 1;").distinct(0, 0));
  // Lanes 0 and 1 of one warp reach the same slot.
  EXPECT_FALSE(accesses_of("if (lane.get() == 0) s[t / 32] = 1; if (lane.get() == 1) v = s[t / 32];")
                   .distinct(0, 1));
  // Lanes 0 and 16 of one warp both pass a test modulo 16.
  EXPECT_FALSE(accesses_of("if (t % 16 == 0) s[t / 32] = 1;").distinct(0, 0));
}

// An order compares values, and an unsigned form is the value only modulo 2^32: `t - 1u < 8u`
// failing does not put thread 0 (where t - 1u wraps) past 8, and 4294967295u is no -1.
TEST(LocalIndexRange, ConditionsOnWrappingValuesDoNotBound) {
  EXPECT_FALSE(accesses_of("if (t - 1u < 8u) v = s[t - 1u]; else s[t] = 1;").distinct(0, 1));
  EXPECT_FALSE(accesses_of("if (t < 4294967295u) { s[t] = 1; v = s[t + 1]; }").distinct(0, 1));
  // Where nothing wraps the bound stands: t + 1 < 129 keeps t below 128.
  EXPECT_TRUE(accesses_of("if (t + 1 < 129) s[t] += s[t + 128];").distinct(0, 1));
}

// `t < tx + 1` bounds each thread by its own column: no bound common to the block.
TEST(LocalIndexRange, ABoundOfTheThreadsOwnCoordinatesIsNoBound) {
  EXPECT_FALSE(accesses_of("if (t < tx + 1) { s[t] = 1; v = s[t + 1]; }", {{16, 16, 1}}).distinct(0, 1));
}

// Division truncates toward zero: (t - 5) / 32 is 0 for threads 0 and 32, both lane 0; with a
// dividend never negative, each warp has its slot.
TEST(LocalIndexRange, ANegativeDividendMergesWarpSlots) {
  EXPECT_FALSE(accesses_of("if (lane.get() == 0) s[(int(t) - 5) / 32] = 1;").distinct(0, 0));
  EXPECT_TRUE(accesses_of("if (lane.get() == 0) s[(t + 5) / 32] = 1;").distinct(0, 0));
}

TEST(LocalIndexRange, ConstantSlotsAreDistinctUnlessShared) {
  EXPECT_TRUE(accesses_of("s[0] = 1; v = s[1];").distinct(0, 1));
  EXPECT_FALSE(accesses_of("s[0] = 1;").distinct(0, 0));
  // A single thread writes it.
  EXPECT_TRUE(accesses_of("if (t == 0) s[0] = 1;").distinct(0, 0));
  EXPECT_FALSE(accesses_of("if (t == 0) s[0] = 1; if (t == 1) v = s[0];").distinct(0, 1));
}

// In a 2-D block: a row stride wider than the block's rows keeps threads apart, a narrower one
// lets rows overlap.
TEST(LocalIndexRange, TwoDimensionalSlotsMeetOnlyWhenRowsOverlap) {
  const BlockShape k32x8 = {{32, 8, 1}};
  EXPECT_TRUE(accesses_of("s[ty * 33 + tx] = 1;", k32x8).distinct(0, 0));
  EXPECT_FALSE(accesses_of("s[ty * 16 + tx] = 1;", k32x8).distinct(0, 0));
  EXPECT_FALSE(accesses_of("s[tx] = 1;", k32x8).distinct(0, 0));
  // The transposed read of a padded tile is another thread's write.
  EXPECT_FALSE(accesses_of("s[ty * 33 + tx] = 1; v = s[tx * 33 + ty];", k32x8).distinct(0, 1));
}

}  // namespace
