// value_sets: the few values a local integer variable can hold anywhere in its function, when
// every definition of it combines constants and variables of the same kind; none otherwise.
#include "analysis/value_sets.hpp"

#include "analysis/thread_values.hpp"

#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using carbide::analysis::BlockShape;
using carbide::analysis::ThreadValues;
using carbide::analysis::ValueSets;
using namespace carbide::testing;

using Values = std::optional<std::set<std::int64_t>>;

struct Function {
  std::unique_ptr<clang::ASTUnit> ast;
  const clang::FunctionDecl* function = nullptr;
  std::unique_ptr<ThreadValues> values;

  // The value set of the variable of `f` named `name`.
  Values of(const std::string& name) const {
    const clang::VarDecl* found = variable_named(function, name);
    EXPECT_TRUE(found) << name;
    if (found == nullptr) return std::set<std::int64_t>{};  // fails any expectation below
    return ValueSets(*values).of(found);
  }
};

Function parsed(const std::string& body) {
  Function result;
  result.ast = parse("void set(int& v) { v = 7; }\nint load(int k) { return k; }\n"
                     "void f(unsigned n, int* out) {\n" + body + "\n}\n");
  EXPECT_TRUE(result.ast);
  EXPECT_FALSE(result.ast->getDiagnostics().hasErrorOccurred());
  result.function = function_named(result.ast->getASTContext(), "f");
  result.values = std::make_unique<ThreadValues>(result.ast->getASTContext(), result.function,
                                                 BlockShape{{256, 1, 1}});
  return result;
}

Values set_of(std::initializer_list<std::int64_t> values) { return std::set<std::int64_t>(values); }

TEST(ValueSets, AToggledFlagHoldsZeroOrOne) {
  const Function f = parsed("int phase = 0;\nfor (unsigned i = 0; i < n; ++i) { phase ^= 1; out[phase] = 0; }");
  EXPECT_EQ(f.of("phase"), set_of({0, 1}));
}

// Two variables that trade values are one group: each holds what either started with.
TEST(ValueSets, VariablesThatSwapShareTheirValues) {
  const Function f = parsed("int a = 3, b = 5;\n"
                            "for (unsigned i = 0; i < n; ++i) { int t = a; a = b; b = t; out[a] = b; }");
  EXPECT_EQ(f.of("a"), set_of({3, 5}));
  EXPECT_EQ(f.of("b"), set_of({3, 5}));
  EXPECT_EQ(f.of("t"), set_of({3, 5}));
}

// Whatever the condition reads, a conditional yields one of its two branches.
TEST(ValueSets, AConditionalHoldsEitherBranch) {
  const Function f = parsed("int width = n > 64 ? 2 : 8; int stride = width * 4 + 1; out[stride] = 0;");
  EXPECT_EQ(f.of("width"), set_of({2, 8}));
  EXPECT_EQ(f.of("stride"), set_of({9, 33}));
}

// kLimit values are still a set; one more is none.
TEST(ValueSets, SixteenValuesAreKeptSeventeenAreNot) {
  const Function f = parsed("int k16 = 0, k32 = 0;\n"
                            "for (unsigned i = 0; i < n; ++i) { k16 = (k16 + 1) & 15; k32 = (k32 + 1) & 31; }");
  EXPECT_EQ(f.of("k16"), set_of({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}));
  EXPECT_EQ(f.of("k32"), std::nullopt);
}

// A conversion to a narrower or unsigned type wraps the value as the target type holds it.
TEST(ValueSets, ValuesAreHeldAsTheVariablesTypeHoldsThem) {
  const Function f = parsed("int big = 300, negative = -1;\n"
                            "unsigned char low = big; signed char folded = big - 100; unsigned all = negative;\n"
                            "out[low + folded + all] = 0;");
  EXPECT_EQ(f.of("low"), set_of({44}));
  EXPECT_EQ(f.of("folded"), set_of({-56}));
  EXPECT_EQ(f.of("all"), set_of({4294967295}));
}

// Past 2^63 an unsigned 64-bit value is still unsigned: `>>` shifts zeros in. Such a value does
// not fit the answer's std::int64_t, so the variable holding it has none.
TEST(ValueSets, AnUnsigned64BitValueShiftsInZeros) {
  const Function f = parsed("unsigned long long mask = 0;\n"
                            "for (unsigned i = 0; i < n; ++i) mask = ~mask;\n"
                            "unsigned long long top = mask >> 60; out[top] = 0;");
  EXPECT_EQ(f.of("top"), set_of({0, 15}));
  EXPECT_EQ(f.of("mask"), std::nullopt);
}

// A conversion to bool tests for non-zero: 2 converts to true, not to its low bit.
TEST(ValueSets, AConversionToBoolTestsForNonZero) {
  const Function f = parsed("int phase = 0; bool high = false;\n"
                            "for (unsigned i = 0; i < n; ++i) { phase = (phase + 1) & 3; high = phase & 2; }\n"
                            "int count = n > 4 ? 0 : 2; bool any = count; out[high + any] = 0;");
  EXPECT_EQ(f.of("high"), set_of({0, 1}));
  EXPECT_EQ(f.of("any"), set_of({0, 1}));
}

// A definition that reads a parameter, a call or memory can be anything: the sound answer is none.
TEST(ValueSets, ADefinitionReadingAnythingElseHasNone) {
  const Function f = parsed("int from_parameter = 0, from_call = 0, from_memory = 0;\n"
                            "if (n > 4) { from_parameter = int(n); from_call = load(2); from_memory = out[0]; }\n"
                            "int derived = from_parameter + 1; out[derived + from_call + from_memory] = 0;");
  EXPECT_EQ(f.of("from_parameter"), std::nullopt);
  EXPECT_EQ(f.of("from_call"), std::nullopt);
  EXPECT_EQ(f.of("from_memory"), std::nullopt);
  EXPECT_EQ(f.of("derived"), std::nullopt);  // through another variable, too
}

// Its definitions are not all in sight, so a value set built from those that are would be too small.
TEST(ValueSets, AVariableChangedThroughAnAliasHasNone) {
  const Function f = parsed("int by_pointer = 0, by_reference = 0, by_helper = 0;\n"
                            "int* p = &by_pointer; *p = 3; int& r = by_reference; r = 4; set(by_helper);\n"
                            "out[by_pointer + by_reference + by_helper] = 0;");
  EXPECT_EQ(f.of("by_pointer"), std::nullopt);
  EXPECT_EQ(f.of("by_reference"), std::nullopt);
  EXPECT_EQ(f.of("by_helper"), std::nullopt);
}

TEST(ValueSets, OperatorsItDoesNotEvaluateGiveNone) {
  const Function f = parsed("int half = 8, rest = 7, below = 0;\n"
                            "if (n > 4) { half = half / 2; rest = rest % 3; below = half < 2; }\n"
                            "out[half + rest + below] = 0;");
  EXPECT_EQ(f.of("half"), std::nullopt);
  EXPECT_EQ(f.of("rest"), std::nullopt);
  EXPECT_EQ(f.of("below"), std::nullopt);
}

TEST(ValueSets, AVariableNeverGivenAValueHasNone) {
  const Function f = parsed("int unset; out[0] = unset;");
  EXPECT_EQ(f.of("unset"), std::nullopt);
  EXPECT_EQ(f.of("n"), std::nullopt);  // a parameter: whatever the caller passes
}

}  // namespace
