// array_indexes: the subscripts of fixed-size C arrays in device code whose index is not proven
// inside the array in every context its text is analysed in; codegen checks those. Constants,
// loop counters below the extent and thread coordinates the contract bounds are proven; a
// parameter, a counter that passes the extent, and a template's text without listed instances
// are not.
#include "analysis/array_indexes.hpp"

#include "analysis_test_support.hpp"
#include "model/model_builder.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

using namespace carbide;
using namespace carbide::testing;

// The text of every unproven subscript in `code` (kernels in namespace k).
std::set<std::string> unproven(const std::string& code) {
  auto ast = parse("namespace k {\n" + code + "\n}\n");
  EXPECT_TRUE(ast);
  if (!ast) return {};
  clang::ASTContext& context = ast->getASTContext();
  const model::Program program = model::build_program(context);
  const analysis::DeviceAnalysis device(context, program);
  std::set<std::string> texts;
  for (const clang::ArraySubscriptExpr* subscript : analysis::unproven_array_subscripts(device))
    texts.insert(text(context, subscript));
  return texts;
}

std::string kernel(const std::string& body) {
  return "CARBIDE_KERNEL\nCARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))\n"
         "void kern(carbide::disjoint_span<float> out, int j) {\n"
         "  auto idx = carbide::thread::index_1d();\n"
         "  float s = 0;\n" + body + "\n  if (float* e = out.get_mut(idx)) *e = s;\n}\n";
}

TEST(ArrayIndexes, ConstantsAndBoundedCountersAreProven) {
  EXPECT_EQ(unproven(kernel("  float a[4] = {};\n"
                            "  a[3] = 1.f;\n"
                            "  for (int k = 0; k < 4; ++k) s += a[k];\n"
                            "  float m[2][8] = {};\n"
                            "  for (int r = 0; r < 2; ++r) for (int c = 0; c < 8; ++c) m[r][c] = s;\n"
                            "  s += m[1][7];")),
            std::set<std::string>{});
}

TEST(ArrayIndexes, ParametersAndCountersPastTheExtentAreNot) {
  EXPECT_EQ(unproven(kernel("  float a[4] = {};\n"
                            "  a[j] = 1.f;\n"
                            "  for (int k = 0; k <= 4; ++k) s += a[k];\n"
                            "  float m[2][8] = {};\n"
                            "  m[j][1] = s;\n"
                            "  m[0][j + 8] = s;")),
            (std::set<std::string>{"a[j]", "a[k]", "m[j]", "m[0][j + 8]"}));
}

TEST(ArrayIndexes, ThreadCoordinatesBoundedByTheContractAreProven) {
  EXPECT_EQ(unproven(kernel("  float per_thread[128] = {};\n"
                            "  per_thread[carbide::thread::thread_idx().x] = 1.f;\n"
                            "  float half[64] = {};\n"
                            "  half[carbide::thread::thread_idx().x] = 1.f;")),
            std::set<std::string>{"half[carbide::thread::thread_idx().x]"});
}

// A helper is proven for every contract that reaches it: block 64 keeps the index inside, 128 not.
TEST(ArrayIndexes, AHelperIsProvenInEveryCallingShape) {
  const std::string helper = "inline float pick() { float a[64] = {}; return a[carbide::thread::thread_idx().x]; }\n";
  const auto with_block = [&](const char* block) {
    return helper + "CARBIDE_KERNEL\nCARBIDE_LAUNCH_CONTRACT(domain = 1, block = (" + block +
           ", 1, 1))\nvoid kern_" + block + "(carbide::disjoint_span<float> out) {\n"
           "  auto idx = carbide::thread::index_1d();\n  if (float* e = out.get_mut(idx)) *e = pick();\n}\n";
  };
  EXPECT_EQ(unproven(with_block("64")), std::set<std::string>{});
  EXPECT_EQ(unproven(with_block("64") + "CARBIDE_KERNEL\nCARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))\n"
                                        "void wide(carbide::disjoint_span<float> out) {\n"
                                        "  auto idx = carbide::thread::index_1d();\n"
                                        "  if (float* e = out.get_mut(idx)) *e = pick();\n}\n"),
            std::set<std::string>{"a[carbide::thread::thread_idx().x]"});
}

// One text serves every instance: an extent of N is proven in one instance and not in another.
TEST(ArrayIndexes, ATemplatesTextIsProvenInEveryInstance) {
  const auto calling = [](const std::string& calls) {
    return "template <int N> float pick(unsigned i) { float a[N] = {}; return a[i % 8]; }\n"
           "CARBIDE_KERNEL\nCARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))\n"
           "void kern(carbide::disjoint_span<float> out, unsigned j) {\n"
           "  auto idx = carbide::thread::index_1d();\n"
           "  if (float* e = out.get_mut(idx)) *e = " + calls + ";\n}\n";
  };
  EXPECT_EQ(unproven(calling("pick<8>(j)")), std::set<std::string>{});
  EXPECT_EQ(unproven(calling("pick<8>(j) + pick<4>(j)")), std::set<std::string>{"a[i % 8]"});
}

// A subscript in a branch that is constant false in an instance cannot run there.
TEST(ArrayIndexes, AConstantFalseBranchOfAnInstanceProvesNothingWrong) {
  const auto calling = [](const std::string& calls) {
    return "template <int N> float pick(unsigned i) { float a[N] = {}; if (N > 8) return a[i % 16]; return a[0]; }\n"
           "CARBIDE_KERNEL\nCARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))\n"
           "void kern(carbide::disjoint_span<float> out, unsigned j) {\n"
           "  auto idx = carbide::thread::index_1d();\n"
           "  if (float* e = out.get_mut(idx)) *e = " + calls + ";\n}\n";
  };
  EXPECT_EQ(unproven(calling("pick<4>(j) + pick<16>(j)")), std::set<std::string>{});
  EXPECT_EQ(unproven(calling("pick<4>(j) + pick<12>(j)")), std::set<std::string>{"a[i % 16]"});
}

TEST(ArrayIndexes, TheArrayOperandIsWhatCodegenWraps) {
  auto ast = parse("namespace k {\n" + kernel("  float a[4] = {};\n  s = a[j] + j[a];") + "}\n");
  ASSERT_TRUE(ast);
  clang::ASTContext& context = ast->getASTContext();
  const model::Program program = model::build_program(context);
  const analysis::DeviceAnalysis device(context, program);
  std::set<std::string> operands, uncheckable;
  for (const clang::ArraySubscriptExpr* subscript : analysis::unproven_array_subscripts(device)) {
    if (const auto operand = analysis::checkable_array_operand(subscript, context))
      operands.insert(clang::Lexer::getSourceText(*operand, context.getSourceManager(), context.getLangOpts()).str());
    else
      uncheckable.insert(text(context, subscript));
  }
  EXPECT_EQ(operands, std::set<std::string>{"a"});
  EXPECT_EQ(uncheckable, std::set<std::string>{"j[a]"});
}

}  // namespace
