// impure_operation_reason: which operations handed to warp::reduce compute from their two values
// alone, and the reason given for each that may not.
#include "analysis/pure_operations.hpp"

#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using namespace carbide::testing;

// The reason for the operation passed to the first warp::reduce in `body`; "" when it is pure.
std::string reason_for(const std::string& prelude, const std::string& body) {
  auto ast = parse(prelude + "\nvoid f(float v, float scale) {\n" + body + "\n}\n");
  EXPECT_TRUE(ast);
  if (!ast) return "no parse";
  const clang::FunctionDecl* f = function_named(ast->getASTContext(), "f");
  const auto folds = calls_of(f, "reduce");
  EXPECT_EQ(folds.size(), 1u) << body;
  if (folds.empty()) return "no call";
  const auto reason = carbide::analysis::impure_operation_reason(folds.front()->getArg(1), ast->getASTContext());
  return reason.value_or("");
}

TEST(PureOperations, LambdasOfTheirValuesAndMathArePure) {
  EXPECT_EQ(reason_for("", "carbide::warp::reduce(v, [](float a, float b) { return a + b; });"), "");
  EXPECT_EQ(reason_for("", "carbide::warp::reduce(v, [](float a, float b) { return fmaxf(a, b); });"), "");
  EXPECT_EQ(reason_for("", "carbide::warp::reduce(v, [](float a, float b) { const float d = a - b; "
                           "return d > 0 ? expf(d) : rsqrtf(b); });"),
            "");
  // A generic lambda, in the instance the fold makes; a helper of the program, followed.
  EXPECT_EQ(reason_for("", "carbide::warp::reduce(v, [](auto a, auto b) { return a < b ? b : a; });"), "");
  EXPECT_EQ(reason_for("float larger(float a, float b) { return a < b ? b : a; }",
                       "carbide::warp::reduce(v, [](float a, float b) { return larger(a, b); });"),
            "");
  // Constants of the program are the same for every lane.
  EXPECT_EQ(reason_for("constexpr float kScale = 2.f;",
                       "carbide::warp::reduce(v, [](float a, float b) { return a + kScale * b; });"),
            "");
  EXPECT_EQ(reason_for("", "auto plus = [](float a, float b) { return a + b; };\ncarbide::warp::reduce(v, plus);"), "");
}

TEST(PureOperations, WhatDiffersBetweenLanesIsRefused) {
  EXPECT_EQ(reason_for("", "carbide::warp::reduce(v, [scale](float a, float b) { return a + scale * b; });"),
            "captures variables, whose values differ between lanes");
  EXPECT_EQ(reason_for("", "carbide::warp::reduce(v, [&](float a, float b) { return a + scale * b; });"),
            "captures variables, whose values differ between lanes");
  EXPECT_EQ(reason_for("", "carbide::warp::reduce(v, [](float a, float b) { "
                           "return a + float(carbide::thread::thread_idx().x); });"),
            "calls 'carbide::thread::thread_idx', which is not one of CUDA's intrinsics");
  // Followed into the program's helpers.
  EXPECT_EQ(reason_for("float lane_bias(float a) { return a + float(carbide::thread::lane().get()); }",
                       "carbide::warp::reduce(v, [](float a, float b) { return lane_bias(a) + b; });"),
            "calls 'carbide::thread::lane', which is not one of CUDA's intrinsics");
  EXPECT_EQ(reason_for("float tally = 0;", "carbide::warp::reduce(v, [](float a, float b) { return a + tally; });"),
            "reads 'tally', which is not a constant");
  EXPECT_EQ(reason_for("", "carbide::warp::reduce(v, [](float a, float b) { static float last = 0; "
                           "last = a; return a + b; });"),
            "reads 'last', which is not a constant");
  EXPECT_EQ(reason_for("float opaque(float a, float b);",
                       "carbide::warp::reduce(v, [](float a, float b) { return opaque(a, b); });"),
            "calls 'opaque', whose body is not visible");
  EXPECT_EQ(reason_for("struct Plus { float operator()(float a, float b) const { return a + b; } };",
                       "carbide::warp::reduce(v, Plus{});"),
            "is not a lambda");
  EXPECT_EQ(reason_for("#include <cstdlib>", "carbide::warp::reduce(v, [](float a, float b) { return a + float(rand()); });"),
            "calls 'rand', which is not a math function of arithmetic values");
}

}  // namespace
