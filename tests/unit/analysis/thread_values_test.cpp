// ThreadValues: what a value is across a block's threads, for the spellings CUDA code uses.
#include "analysis/thread_values.hpp"

#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using carbide::analysis::BlockShape;
using carbide::analysis::ThreadValues;
using carbide::analysis::Uniformity;
using namespace carbide::testing;

struct Values {
  std::unique_ptr<clang::ASTUnit> ast;
  const clang::FunctionDecl* function = nullptr;
  std::unique_ptr<ThreadValues> values;
  const clang::Expr* expr(const std::string& spelled) const {
    const clang::Expr* found = expr_spelled(ast->getASTContext(), function, spelled);
    EXPECT_TRUE(found) << spelled;
    return found;
  }
  Uniformity uniformity(const std::string& spelled) const { return values->uniformity(expr(spelled)); }
};

Values values_of(const std::string& body, BlockShape shape) {
  Values result;
  result.ast = parse("void f(unsigned n) {\n" + body + "\n}\n");
  EXPECT_TRUE(result.ast);
  result.function = function_named(result.ast->getASTContext(), "f");
  result.values = std::make_unique<ThreadValues>(result.ast->getASTContext(), result.function, shape);
  return result;
}

const BlockShape k256 = {{256, 1, 1}};
const BlockShape k32x8 = {{32, 8, 1}};

TEST(ThreadValues, CastsOfCoordinatesKeepTheirForm) {
  auto v = values_of(
      "const int tx = int(carbide::thread::thread_idx().x);\n"
      "const int bx = static_cast<int>(carbide::thread::block_idx().x);\n"
      "int a = tx + 1; int b = bx * 2; (void)a; (void)b;",
      k256);
  EXPECT_EQ(v.uniformity("bx * 2"), Uniformity::Uniform);
  EXPECT_EQ(v.uniformity("tx + 1"), Uniformity::Divergent);
  auto form = v.values->affine(v.expr("tx + 1"));
  ASSERT_TRUE(form);
  EXPECT_EQ(form->local, 1);
  EXPECT_EQ(form->constant, 1);
}

TEST(ThreadValues, NarrowingCastsAreNotSeenThrough) {
  auto v = values_of("const char c = char(carbide::thread::thread_idx().x); int a = c + 0; (void)a;", k256);
  auto form = v.values->affine(v.expr("c + 0"));
  EXPECT_FALSE(form && form->local == 1);
}

// An implicit conversion to fewer bits keeps only the low bits: the 64-bit form (L + 2^32) is not
// the 32-bit value's (L), so the affine tier does not claim one.
TEST(ThreadValues, ImplicitNarrowingIsNotSeenThrough) {
  auto v = values_of("const unsigned long long wide = carbide::thread::thread_idx().x + (1ull << 32);\n"
                     "const unsigned narrow = wide; unsigned a = narrow + 0u; (void)a;", k256);
  const auto form = v.values->affine(v.expr("narrow + 0u"));
  EXPECT_FALSE(form && form->local == 1 && form->constant == (std::int64_t(1) << 32));
  // Widening keeps every value: the form is seen through.
  auto w = values_of("const unsigned tid = carbide::thread::thread_idx().x;\n"
                     "const unsigned long long wide = tid; unsigned long long a = wide + 1; (void)a;", k256);
  const auto widened = w.values->affine(w.expr("wide + 1"));
  ASSERT_TRUE(widened);
  EXPECT_EQ(widened->local, 1);
  EXPECT_EQ(widened->constant, 1);
}

// Unsigned arithmetic narrower than 64 bits wraps: a constant in the upper half of the type is the
// negative it stands for, at the expression's width.
TEST(ThreadValues, UnsignedConstantsAreHeldAtTheirWidth) {
  auto v = values_of("const unsigned tid = carbide::thread::thread_idx().x;\n"
                     "unsigned a = tid + (0u - 1u); unsigned b = tid - 1u; unsigned c = (tid + 4294967294u) / 2u;\n"
                     "unsigned long long d = tid + 18446744073709551615ull; (void)a; (void)b; (void)c; (void)d;",
                     k256);
  const auto wrapped = v.values->affine(v.expr("tid + (0u - 1u)"));
  ASSERT_TRUE(wrapped);
  EXPECT_EQ(wrapped->local, 1);
  EXPECT_EQ(wrapped->constant, -1);
  const auto subtracted = v.values->affine(v.expr("tid - 1u"));
  ASSERT_TRUE(subtracted);
  EXPECT_TRUE(*wrapped == *subtracted);
  // Halving a wrapped value is not halving the negative: left to the solver.
  EXPECT_FALSE(v.values->affine(v.expr("(tid + 4294967294u) / 2u")));
}

TEST(ThreadValues, ComparisonsAtWarpBoundariesAreWarpUniform) {
  auto v = values_of(
      "const unsigned tid = carbide::thread::thread_idx().x;\n"
      "bool a = tid < 32; bool b = tid < 16; bool c = tid >= 64; bool d = 31 < tid;\n"
      "bool e = tid <= 31; bool f = tid + 1 < 32; (void)a; (void)b; (void)c; (void)d; (void)e; (void)f;",
      k256);
  EXPECT_EQ(v.uniformity("tid < 32"), Uniformity::WarpUniform);
  EXPECT_EQ(v.uniformity("tid < 16"), Uniformity::Divergent);
  EXPECT_EQ(v.uniformity("tid >= 64"), Uniformity::WarpUniform);
  EXPECT_EQ(v.uniformity("31 < tid"), Uniformity::WarpUniform);
  EXPECT_EQ(v.uniformity("tid <= 31"), Uniformity::WarpUniform);
  EXPECT_EQ(v.uniformity("tid + 1 < 32"), Uniformity::Divergent);
}

// A warp's number (thread::warp_index_1d()) is the same for its lanes in any block shape, since
// it counts warps as the hardware forms them; a value that adds the lane is not.
TEST(ThreadValues, WarpNumbersAreWarpUniform) {
  for (const BlockShape& shape : {k256, k32x8, BlockShape{{48, 1, 1}}}) {
    auto v = values_of(
        "auto warp = carbide::thread::warp_index_1d();\n"
        "const unsigned lane = carbide::thread::lane().get();\n"
        "bool a = warp.get() < 7u; bool b = warp.get() * 32 + lane < 7u; (void)a; (void)b;",
        shape);
    EXPECT_EQ(v.uniformity("warp.get() < 7u"), Uniformity::WarpUniform);
    EXPECT_EQ(v.uniformity("warp.get() * 32 + lane < 7u"), Uniformity::Divergent);
  }
}

TEST(ThreadValues, RowComparisonsAreWarpUniformInRowsOfWarps) {
  auto v = values_of(
      "const unsigned ty = carbide::thread::thread_idx().y;\n"
      "const unsigned tx = carbide::thread::thread_idx().x;\n"
      "bool a = ty < 3; bool b = tx < 3; (void)a; (void)b;",
      k32x8);
  EXPECT_EQ(v.uniformity("ty < 3"), Uniformity::WarpUniform);
  EXPECT_EQ(v.uniformity("tx < 3"), Uniformity::Divergent);
}

// Judged by value for every thread of the exact block, not by the comparison's spelling.
TEST(ThreadValues, ComparisonsAreJudgedByTheirValueInTheExactBlock) {
  auto v = values_of(
      "const unsigned tx = carbide::thread::thread_idx().x;\n"
      "const unsigned ty = carbide::thread::thread_idx().y;\n"
      "const unsigned tid = ty * 32 + tx;\n"
      "bool a = tid < 32; bool b = tx < 32; bool c = tid < 256; bool d = tid < 48;\n"
      "bool f = tx - 1 < 8; (void)a; (void)b; (void)c; (void)d; (void)f;",
      k32x8);
  EXPECT_EQ(v.uniformity("tid < 32"), Uniformity::WarpUniform);
  EXPECT_EQ(v.uniformity("tx < 32"), Uniformity::Uniform);
  EXPECT_EQ(v.uniformity("tid < 256"), Uniformity::Uniform);
  EXPECT_EQ(v.uniformity("tid < 48"), Uniformity::Divergent);
  // tx - 1 wraps for tx = 0 in unsigned arithmetic: not judged, so divergent.
  EXPECT_EQ(v.uniformity("tx - 1 < 8"), Uniformity::Divergent);

  auto whole = values_of(
      "const unsigned tid = carbide::thread::thread_idx().x;\n"
      "bool a = tid < 256; bool b = 0 <= tid; bool c = tid != 300; bool d = tid / 32 == 2;\n"
      "bool e = 2 == tid / 64; (void)a; (void)b; (void)c; (void)d; (void)e;",
      k256);
  EXPECT_EQ(whole.uniformity("tid < 256"), Uniformity::Uniform);
  EXPECT_EQ(whole.uniformity("0 <= tid"), Uniformity::Uniform);
  EXPECT_EQ(whole.uniformity("tid != 300"), Uniformity::Uniform);
  // Each side keeps its own divisor.
  EXPECT_EQ(whole.uniformity("tid / 32 == 2"), Uniformity::WarpUniform);
  EXPECT_EQ(whole.uniformity("2 == tid / 64"), Uniformity::WarpUniform);

  const BlockShape k16x16 = {{16, 16, 1}};
  auto half = values_of(
      "const unsigned tx = carbide::thread::thread_idx().x;\n"
      "const unsigned ty = carbide::thread::thread_idx().y;\n"
      "bool a = ty * 16 + tx < 16; bool b = ty < 2; (void)a; (void)b;",
      k16x16);
  EXPECT_EQ(half.uniformity("ty * 16 + tx < 16"), Uniformity::Divergent);
  EXPECT_EQ(half.uniformity("ty < 2"), Uniformity::WarpUniform);
}

// A warp lies within one row when block.x is a multiple of 32: a row number built from
// thread_idx().y and uniform values is the warp's, whatever else is added to it.
TEST(ThreadValues, RowsBuiltFromTheYCoordinateAreWarpUniform) {
  auto v = values_of(
      "const unsigned tx = carbide::thread::thread_idx().x;\n"
      "const unsigned ty = carbide::thread::thread_idx().y;\n"
      "const unsigned row = carbide::thread::block_idx().x * 8 + ty;\n"
      "unsigned a = row + 0u; unsigned b = (ty + carbide::thread::block_idx().y) / 3u; unsigned c = tx / 32u;\n"
      "unsigned d = (tx + 1u) / 32u; unsigned e = tx + ty; unsigned f = (tx + 32u * ty) / 64u;\n"
      "(void)a; (void)b; (void)c; (void)d; (void)e; (void)f;",
      k32x8);
  EXPECT_EQ(v.uniformity("row + 0u"), Uniformity::WarpUniform);
  EXPECT_EQ(v.uniformity("(ty + carbide::thread::block_idx().y) / 3u"), Uniformity::WarpUniform);
  EXPECT_EQ(v.uniformity("tx / 32u"), Uniformity::WarpUniform);
  EXPECT_EQ(v.uniformity("(tx + 1u) / 32u"), Uniformity::Divergent);
  EXPECT_EQ(v.uniformity("tx + ty"), Uniformity::Divergent);
  EXPECT_EQ(v.uniformity("(tx + 32u * ty) / 64u"), Uniformity::WarpUniform);
  // Division rounds toward zero: lane 0 of warp 0 gets -1, its other lanes 0.
  auto signed_values = values_of(
      "const int lid = int(carbide::thread::thread_idx().x);\n"
      "int a = (lid - 32) / 32; int b = (lid + 32) / 32; (void)a; (void)b;",
      k256);
  EXPECT_EQ(signed_values.uniformity("(lid - 32) / 32"), Uniformity::Divergent);
  EXPECT_EQ(signed_values.uniformity("(lid + 32) / 32"), Uniformity::WarpUniform);
  // Rows of 16: a warp holds two rows, so the row differs within it.
  auto half = values_of(
      "const unsigned ty = carbide::thread::thread_idx().y;\n"
      "unsigned a = carbide::thread::block_idx().x * 16 + ty; (void)a;",
      BlockShape{{16, 16, 1}});
  EXPECT_EQ(half.uniformity("carbide::thread::block_idx().x * 16 + ty"), Uniformity::Divergent);
}

TEST(ThreadValues, WarpFunctionsFromTheCatalogue) {
  auto v = values_of(
      "float x = 1.0f; float s = carbide::warp::inclusive_scan_add(x);\n"
      "float r = carbide::warp::reduce_add(x); (void)s; (void)r;",
      k256);
  EXPECT_EQ(v.uniformity("carbide::warp::inclusive_scan_add(x)"), Uniformity::Divergent);
  EXPECT_EQ(v.uniformity("carbide::warp::reduce_add(x)"), Uniformity::WarpUniform);
}

// A block-stride loop's index is the block's, as its count is: barriers may sit in the loop.
TEST(ThreadValues, BlockStrideIndexesAreAsUniformAsTheirCount) {
  auto v = values_of(
      "for (auto&& row : carbide::block::grid_stride(100u)) { unsigned r = row.get() + 0; (void)r; }\n"
      "for (auto&& own : carbide::block::grid_stride(carbide::thread::thread_idx().x)) {\n"
      "  unsigned o = own.get() + 0; (void)o; }",
      k256);
  EXPECT_EQ(v.uniformity("row.get() + 0"), Uniformity::Uniform);
  EXPECT_EQ(v.uniformity("own.get() + 0"), Uniformity::Divergent);
}

TEST(ThreadValues, AssignedAfterADivergentMultiStatementReturn) {
  auto v = values_of(
      "const unsigned t = carbide::thread::local_index().get();\n"
      "unsigned k = 0;\n"
      "if (t >= n) { k = 1; return; }\n"
      "k = 2;\n"
      "unsigned m = k; (void)m;",
      k256);
  EXPECT_EQ(v.uniformity("k"), Uniformity::Divergent);
}

// A kernel's values, for the facts about its own parameters.
Values kernel_values_of(const std::string& helpers, const std::string& body) {
  Values result;
  result.ast = parse(helpers + "\nCARBIDE_KERNEL void k(unsigned n, unsigned m) {\n" + body + "\n}\n");
  EXPECT_TRUE(result.ast);
  result.function = function_named(result.ast->getASTContext(), "k");
  result.values = std::make_unique<ThreadValues>(result.ast->getASTContext(), result.function, k256);
  return result;
}

// A helper's result is as uniform as its body makes it, not only as its arguments.
TEST(ThreadValues, HelperResultsAreAsUniformAsTheirBodies) {
  auto v = kernel_values_of(
      "bool first_half() { return carbide::thread::thread_idx().x < 16; }\n"
      "unsigned half(unsigned x) { return x / 2; }\n"
      "unsigned pick(unsigned x) { if (carbide::thread::thread_idx().x == 0) return x; return 0; }",
      "bool a = first_half(); unsigned b = half(n); unsigned c = pick(n); (void)a; (void)b; (void)c;");
  EXPECT_EQ(v.uniformity("first_half()"), Uniformity::Divergent);
  EXPECT_EQ(v.uniformity("half(n)"), Uniformity::Uniform);
  EXPECT_EQ(v.uniformity("pick(n)"), Uniformity::Divergent);  // its returns are under a divergent branch
}

// A kernel parameter the kernel assigns is as uniform as what it is given; one that escapes is
// not uniform at all.
TEST(ThreadValues, AssignedAndEscapingParameters) {
  auto v = kernel_values_of("",
      "const unsigned t = carbide::thread::local_index().get();\n"
      "n = t; unsigned& alias = m; alias = 3;\n"
      "unsigned a = n + 0; unsigned b = m + 0; (void)a; (void)b;");
  EXPECT_EQ(v.uniformity("n + 0"), Uniformity::Divergent);
  EXPECT_EQ(v.uniformity("m + 0"), Uniformity::Divergent);
}

// Writes through std::swap, a member, or a lambda's reference capture define the variable.
TEST(ThreadValues, WritesThatNameNoVariableStillDefineIt) {
  auto v = kernel_values_of("#include <utility>\nstruct Pair { unsigned a, b; };",
      "const unsigned t = carbide::thread::local_index().get();\n"
      "unsigned s = n; unsigned mine = t; std::swap(s, mine);\n"
      "Pair p{n, m}; p.a = t;\n"
      "unsigned w = 0; auto set = [&w, t] { w = t; }; set();\n"
      "unsigned x = s + 0; unsigned y = p.a + 0; unsigned z = w + 0; (void)x; (void)y; (void)z;");
  EXPECT_EQ(v.uniformity("s + 0"), Uniformity::Divergent);
  EXPECT_EQ(v.uniformity("p.a + 0"), Uniformity::Divergent);
  EXPECT_EQ(v.uniformity("w + 0"), Uniformity::Divergent);
}

}  // namespace
