// proven_span_reads: a span read loses its check only where every way into it has just tested
// its index against that view's size, with neither changed since.
#include "analysis/proven_span_reads.hpp"

#include "analysis_test_support.hpp"
#include "model/model_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using namespace carbide;
using namespace carbide::testing;

struct Reads {
  std::unique_ptr<clang::ASTUnit> ast;
  model::Program program;
  std::vector<const clang::CXXOperatorCallExpr*> proven;
  // Whether the n-th subscript written `spelled` (in source order) was proven.
  bool proven_at(const std::string& spelled, std::size_t nth = 0) const {
    struct Finder : clang::RecursiveASTVisitor<Finder> {
      clang::ASTContext* context;
      std::string spelled;
      std::vector<const clang::CXXOperatorCallExpr*> found;
      bool shouldVisitTemplateInstantiations() const { return true; }  // a template's subscripts are resolved there
      bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr* call) {
        if (call->getOperator() == clang::OO_Subscript && text(*context, call) == spelled) found.push_back(call);
        return true;
      }
    } finder;
    finder.context = &ast->getASTContext();
    finder.spelled = spelled;
    finder.TraverseDecl(ast->getASTContext().getTranslationUnitDecl());
    EXPECT_LT(nth, finder.found.size()) << spelled;
    return nth < finder.found.size() &&
           std::find(proven.begin(), proven.end(), finder.found[nth]) != proven.end();
  }
};

Reads reads_of(const std::string& body, const std::string& helpers = "", const std::string& contract_extra = "") {
  Reads reads;
  reads.ast = parse("void use(float);\nnamespace k {\n" + helpers +
                    "\nCARBIDE_KERNEL\nCARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1)" + contract_extra + ")\n"
                    "void f(carbide::span<const float> x, carbide::span<const float> y, "
                    "carbide::disjoint_span<float> out, std::size_t n) {\n"
                    "  auto idx = carbide::thread::index_1d();\n  std::size_t i = n;\n" +
                    body + "\n}\n}\n");
  EXPECT_TRUE(reads.ast);
  reads.program = model::build_program(reads.ast->getASTContext());
  reads.proven = analysis::proven_span_reads(reads.program);
  return reads;
}

TEST(ProvenSpanReads, LoopsBoundedBySize) {
  const Reads r = reads_of(
      "for (std::size_t g = idx.get(); g < x.size(); g += 256) use(x[g]);\n"
      "for (unsigned j = 0; j < x.size(); ++j) use(x[j]);\n"
      "for (int k = 0; x.size() > k; ++k) use(x[k]);\n"
      "std::size_t w = 0; while (w < x.size()) use(x[w]);");
  EXPECT_TRUE(r.proven_at("x[g]"));
  EXPECT_TRUE(r.proven_at("x[j]"));
  EXPECT_TRUE(r.proven_at("x[k]"));  // a negative k converts to a value no size exceeds, in both places
  EXPECT_TRUE(r.proven_at("x[w]"));
}

TEST(ProvenSpanReads, BranchesTernariesAndConjunctions) {
  const Reads r = reads_of(
      "if (idx.get() < x.size()) use(x[idx.get()]);\n"
      "use(i < x.size() ? x[i] : 0.f);\n"
      "if (n > 3 && i < x.size() && i < y.size()) use(x[i] + y[i]);\n"
      "if (i < x.size() && x[i] > 0.f) use(1.f);");
  EXPECT_TRUE(r.proven_at("x[idx.get()]"));
  EXPECT_TRUE(r.proven_at("x[i]", 0));
  EXPECT_TRUE(r.proven_at("x[i]", 1));
  EXPECT_TRUE(r.proven_at("y[i]"));
  EXPECT_TRUE(r.proven_at("x[i]", 2));
}

TEST(ProvenSpanReads, GridStrideOverTheSameView) {
  const Reads r = reads_of(
      "for (auto w : carbide::thread::grid_stride(x)) use(x[w.get()]);\n"
      "for (auto v : carbide::thread::grid_stride(out)) use(y[v.get()]);");
  EXPECT_TRUE(r.proven_at("x[w.get()]"));
  EXPECT_FALSE(r.proven_at("y[v.get()]"));  // out's length says nothing of y's
}

TEST(ProvenSpanReads, OtherTestsProveNothing) {
  const Reads r = reads_of(
      "if (i < y.size()) use(x[i]);\n"
      "if (i < x.size()) {} else use(x[i]);\n"
      "if (i <= x.size()) use(x[i]);\n"
      "if (!(i >= x.size())) use(x[i]);\n"
      "if (i < x.size() || n > 2) use(x[i]);\n"
      "do use(x[i]); while (i < x.size());\n"
      "if (unsigned(i) < x.size()) use(x[i]);\n"
      "use(x[i]);");
  for (std::size_t nth = 0; nth < 8; ++nth) EXPECT_FALSE(r.proven_at("x[i]", nth)) << nth;
}

TEST(ProvenSpanReads, ChangesAfterTheTestProveNothing) {
  const Reads r = reads_of(
      "for (std::size_t a = 0; a < x.size(); ++a) { ++a; use(x[a]); }\n"
      "if (i < x.size()) { i = n; use(x[i]); }\n"
      "std::size_t b = n; std::size_t* p = &b; if (b < x.size()) { *p = n + 1; use(x[b]); }\n"
      "std::size_t c = n; if (c < x.size() && (c = n + 2)) use(x[c]);\n"
      "std::size_t d = n; std::size_t& alias = d; if (d < x.size()) { alias = n; use(x[d]); }");
  EXPECT_FALSE(r.proven_at("x[a]"));
  EXPECT_FALSE(r.proven_at("x[i]"));
  EXPECT_FALSE(r.proven_at("x[b]"));
  EXPECT_FALSE(r.proven_at("x[c]"));
  EXPECT_FALSE(r.proven_at("x[d]"));
}

TEST(ProvenSpanReads, AliasesTheTestCannotSeeProveNothing) {
  // A lambda that captures the index, and a reference member bound to it, can change it where
  // no assignment names it.
  const Reads r = reads_of(
      "std::size_t a = n; auto bump = [&] { ++a; };\n"
      "if (a < x.size()) { bump(); use(x[a]); }\n"
      "std::size_t b = n; struct Ref { std::size_t& to; } ref{b};\n"
      "if (b < x.size()) { ref.to = n + 1; use(x[b]); }\n"
      "struct View { carbide::span<const float>& to; } view{y};\n"
      "if (i < y.size()) { view.to = x; use(y[i]); }");
  EXPECT_FALSE(r.proven_at("x[a]"));
  EXPECT_FALSE(r.proven_at("x[b]"));
  EXPECT_FALSE(r.proven_at("y[i]"));
}

TEST(ProvenSpanReads, ReadsAndCopiesKeepTheProof) {
  const Reads r = reads_of(
      "carbide::span<const float> copy = x; use(float(copy.size()));\n"
      "const std::size_t seen = i; use(float(seen));\n"
      "if (i < x.size()) use(x[i]);");
  EXPECT_TRUE(r.proven_at("x[i]"));
  // A const reference can be cast back to a mutable one.
  const Reads bound = reads_of("const std::size_t& seen = i; use(float(seen));\nif (i < x.size()) use(x[i]);");
  EXPECT_FALSE(bound.proven_at("x[i]"));
}

TEST(ProvenSpanReads, AViewAssignedAnywhereProvesNothing) {
  const Reads r = reads_of("if (i < x.size()) use(x[i]);\nx = y;");
  EXPECT_FALSE(r.proven_at("x[i]"));
}

TEST(ProvenSpanReads, JumpsAndLambdasProveNothing) {
  const Reads jumps = reads_of("if (i < x.size()) { again: use(x[i]); }\nif (n == 7) goto again;");
  EXPECT_FALSE(jumps.proven_at("x[i]"));
  const Reads cases = reads_of("switch (n) { case 0: if (i < x.size()) { case 1: use(x[i]); } }");
  EXPECT_FALSE(cases.proven_at("x[i]"));
  const Reads lambda = reads_of("if (i < x.size()) { auto read = [&] { return x[i]; }; use(read()); }");
  EXPECT_FALSE(lambda.proven_at("x[i]"));
}

TEST(ProvenSpanReads, AGridThatCoversTheViewProvesItsWitnessReads) {
  const std::string body =
      "use(x[idx.get()] + y[idx.get()]);\n"
      "auto grid = carbide::thread::index_1d(); use(x[grid.get()]);\n"
      "for (auto w : carbide::thread::grid_stride(out)) use(x[w.get()]);";
  const Reads covered = reads_of(body, "", ", covers = x");
  EXPECT_TRUE(covered.proven_at("x[idx.get()]"));
  EXPECT_TRUE(covered.proven_at("x[grid.get()]"));
  EXPECT_FALSE(covered.proven_at("y[idx.get()]"));  // y's length is not the grid's
  EXPECT_FALSE(covered.proven_at("x[w.get()]"));    // grid-stride witnesses pass the grid
  const Reads plain = reads_of(body);
  EXPECT_FALSE(plain.proven_at("x[idx.get()]"));
  // A contract naming a view the kernel changes proves nothing.
  const Reads changed = reads_of(body + "\nx = y;", "", ", covers = x");
  EXPECT_FALSE(changed.proven_at("x[idx.get()]"));
}

TEST(ProvenSpanReads, HelpersTooButNotTemplates) {
  const Reads r = reads_of("plain(x, n); templated(x, n);",
                           "void plain(carbide::span<const float> v, std::size_t m) {\n"
                           "  for (std::size_t e = 0; e < v.size() && e < m; ++e) use(v[e]);\n}\n"
                           "template <class T> void templated(carbide::span<const T> v, std::size_t m) {\n"
                           "  for (std::size_t t = 0; t < v.size(); ++t) use(v[t]);\n}\n");
  EXPECT_TRUE(r.proven_at("v[e]"));
  EXPECT_FALSE(r.proven_at("v[t]"));
}

}  // namespace
