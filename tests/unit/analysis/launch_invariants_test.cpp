// LaunchInvariants: the values every thread of a launch computes alike for the whole kernel.
#include "analysis/launch_invariants.hpp"

#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using carbide::analysis::LaunchInvariants;
using namespace carbide::testing;

struct Invariants {
  std::unique_ptr<clang::ASTUnit> ast;
  const clang::FunctionDecl* function = nullptr;
  std::unique_ptr<LaunchInvariants> facts;
  bool invariant(const std::string& spelled) const {
    const clang::Expr* found = expr_spelled(ast->getASTContext(), function, spelled);
    EXPECT_TRUE(found) << spelled;
    return found && facts->invariant(found);
  }
};

Invariants invariants_of(const std::string& body, bool is_kernel = true) {
  Invariants result;
  result.ast = parse("void use(unsigned);\nvoid bump(unsigned&);\n" +
                     std::string(is_kernel ? "CARBIDE_KERNEL\n" : "") +
                     "void f(carbide::disjoint_span<float> out, unsigned n, unsigned m) {\n" + body + "\n}\n");
  EXPECT_TRUE(result.ast);
  result.function = function_named(result.ast->getASTContext(), "f");
  result.facts = std::make_unique<LaunchInvariants>(result.ast->getASTContext(), result.function);
  return result;
}

TEST(LaunchInvariants, ConstantsParametersAndExtents) {
  auto v = invariants_of("use(4u); use(n); use(n * 2 + 1); use(1u << n); use(out.size() / 2);");
  EXPECT_TRUE(v.invariant("4u"));
  EXPECT_TRUE(v.invariant("n"));
  EXPECT_TRUE(v.invariant("n * 2 + 1"));
  EXPECT_TRUE(v.invariant("1u << n"));
  EXPECT_TRUE(v.invariant("out.size() / 2"));
}

TEST(LaunchInvariants, LocalsComputedFromInvariants) {
  auto v = invariants_of("const unsigned s = n / 2; unsigned t = s + m; use(s); use(t);");
  EXPECT_TRUE(v.invariant("s"));
  EXPECT_TRUE(v.invariant("t"));
}

TEST(LaunchInvariants, ThreadValuesAreNot) {
  auto v = invariants_of(
      "auto idx = carbide::thread::index_1d(); const unsigned s = unsigned(idx.get()) % 4;"
      " const unsigned b = carbide::thread::block_idx().x; use(s); use(b);");
  EXPECT_FALSE(v.invariant("s"));
  EXPECT_FALSE(v.invariant("b"));
}

TEST(LaunchInvariants, ValuesThatChangeAreNot) {
  auto v = invariants_of(
      "for (unsigned s = 1; s < n; s *= 2) use(s);"
      " unsigned a = n; a = m; use(a);"
      " unsigned r = n; bump(r); use(r);"
      " unsigned q = n; unsigned& alias = q; alias = 3; use(q);"
      " m += 1; use(m);");
  EXPECT_FALSE(v.invariant("s"));
  EXPECT_FALSE(v.invariant("a"));
  EXPECT_FALSE(v.invariant("r"));
  EXPECT_FALSE(v.invariant("q"));
  EXPECT_FALSE(v.invariant("m"));
}

TEST(LaunchInvariants, AHelpersParametersAreNot) {
  auto v = invariants_of("use(n);", /*is_kernel=*/false);
  EXPECT_FALSE(v.invariant("n"));
}

// A helper's parameter is invariant where every call in the device code passes an invariant value,
// through helpers that pass their own parameters on; one call with a thread's value spoils it.
TEST(LaunchInvariants, AHelpersParametersAreAsTheirCallsPassThem) {
  auto ast = parse(
      "void use(unsigned);\n"
      "void leaf(unsigned s) { use(s); }\n"
      "void middle(unsigned s) { leaf(s * 2); }\n"
      "void spoiled(unsigned s) { use(s); }\n"
      "CARBIDE_KERNEL\nvoid k(carbide::disjoint_span<float> out, unsigned n) {\n"
      "  middle(n); leaf(4u); spoiled(n);\n"
      "  spoiled(unsigned(carbide::thread::index_1d().get()));\n}\n");
  ASSERT_TRUE(ast);
  clang::ASTContext& context = ast->getASTContext();
  std::vector<const clang::FunctionDecl*> definitions;
  for (const char* name : {"leaf", "middle", "spoiled", "k"}) definitions.push_back(function_named(context, name));
  carbide::analysis::CallSiteInvariants call_sites(context, definitions);
  const auto parameter = [&](const char* function) { return function_named(context, function)->getParamDecl(0); };
  EXPECT_TRUE(call_sites.parameter(parameter("leaf")));
  EXPECT_TRUE(call_sites.parameter(parameter("middle")));
  EXPECT_FALSE(call_sites.parameter(parameter("spoiled")));
}

}  // namespace
