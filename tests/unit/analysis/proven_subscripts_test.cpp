// proven_subscripts: the shared-array subscripts (`tile[i]`, `tile[lid]`, `tile.fetch_add(i, v)`)
// that stay inside the array's compile-time extent in every block and instantiation their
// function runs in, and so lose their bounds check; every other subscript keeps it.
#include "analysis/proven_subscripts.hpp"

#include "analysis/shared_accesses.hpp"
#include "analysis_test_support.hpp"
#include "model/model_builder.hpp"

#include <gtest/gtest.h>

#include <set>

namespace {

using namespace carbide;
using namespace carbide::testing;

struct Proofs {
  std::unique_ptr<clang::ASTUnit> ast;
  std::set<clang::SourceLocation> proven_at;  // where each proven index is written

  // Whether the shared access written `spelled` (its first, in any instantiation) lost its check.
  bool proven(const std::string& spelled) const {
    struct Finder : clang::RecursiveASTVisitor<Finder> {
      clang::ASTContext* context;
      std::string spelled;
      const clang::CallExpr* found = nullptr;
      bool shouldVisitTemplateInstantiations() const { return true; }  // a template's accesses are resolved there
      bool VisitCallExpr(clang::CallExpr* call) {
        if (found == nullptr && analysis::is_tile_access(call) && text(*context, call) == spelled) found = call;
        return true;
      }
    } finder;
    finder.context = &ast->getASTContext();
    finder.spelled = spelled;
    finder.TraverseDecl(ast->getASTContext().getTranslationUnitDecl());
    EXPECT_TRUE(finder.found) << spelled;
    return finder.found && proven_at.count(analysis::tile_index(finder.found)->getBeginLoc()) != 0;
  }
};

Proofs proofs_of(const std::string& code) {
  Proofs proofs;
  proofs.ast = parse("namespace k {\n" + code + "\n}\n");
  EXPECT_TRUE(proofs.ast);
  clang::ASTContext& context = proofs.ast->getASTContext();
  const model::Program program = model::build_program(context);
  const analysis::DeviceAnalysis device(context, program);
  for (const clang::Expr* index : analysis::proven_shared_indexes(device)) proofs.proven_at.insert(index->getBeginLoc());
  return proofs;
}

// A kernel `name` under `contract`, with tx, ty, lid, lane and an unknown `offset` declared
// before `body`.
std::string kernel(const std::string& name, const std::string& contract, const std::string& body) {
  return "CARBIDE_KERNEL\nCARBIDE_LAUNCH_CONTRACT(" + contract + ")\n"
         "void " + name + "(carbide::span<const float> in, unsigned offset, carbide::disjoint_span<float> out) {\n"
         "  auto idx = carbide::thread::index_1d();\n"
         "  auto lid = carbide::thread::local_index();\n"
         "  auto lane = carbide::thread::lane();\n"
         "  const unsigned tx = carbide::thread::thread_idx().x, ty = carbide::thread::thread_idx().y;\n"
         "  float sum = 0.f;\n" +
         body + "\n  if (float* o = out.get_mut(idx)) *o = sum;\n}\n";
}

TEST(ProvenSubscripts, WitnessSubscriptProvenWhenTheBlockFitsTheArray) {
  const Proofs p = proofs_of(kernel("f", "domain = 1, block = (256, 1, 1)",
                                    "auto tile = carbide::block::shared<float, 256>();\n"
                                    "auto half = carbide::block::shared<float, 128>();\n"
                                    "tile[lid] = 1.f; half[lid] = 2.f;"));
  EXPECT_TRUE(p.proven("tile[lid]"));
  EXPECT_FALSE(p.proven("half[lid]"));  // threads 128 to 255 pass its end
}

TEST(ProvenSubscripts, LoopCounterBelowTheExtentProven) {
  const Proofs p = proofs_of(kernel("f", "domain = 2, block = (32, 8, 1)",
                                    "auto tile = carbide::block::shared<float, 256>();\n"
                                    "for (unsigned k = 0; k < 32; ++k) sum += tile[ty * 32 + k];\n"
                                    "for (unsigned j = 0; j <= 32; ++j) sum += tile[ty * 32 + j];"));
  EXPECT_TRUE(p.proven("tile[ty * 32 + k]"));
  EXPECT_FALSE(p.proven("tile[ty * 32 + j]"));  // one past the end for the last row of threads
}

TEST(ProvenSubscripts, ConditionsAtTheAccessNarrowItsIndex) {
  const Proofs p = proofs_of(kernel("f", "domain = 2, block = (32, 8, 1)",
                                    "auto tile = carbide::block::shared<float, 256>();\n"
                                    "auto few = carbide::block::shared<float, 4>();\n"
                                    "if (tx < 16) sum += tile[tx + 240];\n"
                                    "sum += lane.get() < 4 ? few[lane.get()] : 0.f;\n"
                                    "if (tx < 16 || ty < 2) sum += tile[240 + tx];\n"
                                    "sum += lane.get() <= 4 ? few[lane.get() + 0] : 0.f;"));
  EXPECT_TRUE(p.proven("tile[tx + 240]"));
  EXPECT_TRUE(p.proven("few[lane.get()]"));
  EXPECT_FALSE(p.proven("tile[240 + tx]"));  // only one side of the || holds
  EXPECT_FALSE(p.proven("few[lane.get() + 0]"));  // lane 4 is one past the end
}

// The test proved `x & 7u` below 4, but x changed since: x = 3 reaches slot 4, past the end.
TEST(ProvenSubscripts, AConditionOnAValueChangedSinceProvesNothing) {
  const Proofs p = proofs_of(kernel("f", "domain = 1, block = (256, 1, 1)",
                                    "auto few = carbide::block::shared<float, 4>();\n"
                                    "unsigned x = offset;\n"
                                    "if ((x & 7u) < 4u) { x += 1u; sum += few[x & 7u]; }\n"
                                    "const unsigned y = offset;\n"
                                    "if ((y & 7u) < 4u) sum += few[y & 7u];"));
  EXPECT_FALSE(p.proven("few[x & 7u]"));
  EXPECT_TRUE(p.proven("few[y & 7u]"));
}

TEST(ProvenSubscripts, UnknownNegativeOrWrappingIndexesNotProven) {
  const Proofs p = proofs_of(kernel("f", "domain = 2, block = (32, 8, 1)",
                                    "auto tile = carbide::block::shared<float, 256>();\n"
                                    "sum += tile[ty * 32 + tx];\n"
                                    "sum += tile[offset];\n"
                                    "sum += tile[tx - 1];\n"
                                    "sum += tile[int(tx) - 8];\n"
                                    "unsigned moved = tx; moved *= 9;\n"
                                    "sum += tile[moved];\n"
                                    "sum += tile[unsigned(in[0])];"));
  EXPECT_TRUE(p.proven("tile[ty * 32 + tx]"));
  EXPECT_FALSE(p.proven("tile[offset]"));
  EXPECT_FALSE(p.proven("tile[tx - 1]"));  // thread 0 wraps to 4294967295
  EXPECT_FALSE(p.proven("tile[int(tx) - 8]"));
  EXPECT_FALSE(p.proven("tile[moved]"));
  EXPECT_FALSE(p.proven("tile[unsigned(in[0])]"));
}

TEST(ProvenSubscripts, AtomicAddIndexProvenLikeASubscript) {
  const Proofs p = proofs_of(kernel("f", "domain = 2, block = (32, 8, 1)",
                                    "auto counts = carbide::block::shared<unsigned, 32>();\n"
                                    "counts.fetch_add(tx, 1u);\n"
                                    "counts.fetch_add(ty * 32 + tx, 1u);"));
  EXPECT_TRUE(p.proven("counts.fetch_add(tx, 1u)"));
  EXPECT_FALSE(p.proven("counts.fetch_add(ty * 32 + tx, 1u)"));
}

// The dynamic array's extent is the launch's: no index is proven inside it.
TEST(ProvenSubscripts, DynamicArrayIndexesNeverProven) {
  const Proofs p = proofs_of(kernel("f", "domain = 1, block = (256, 1, 1)",
                                    "auto dynamic = carbide::block::dynamic_shared<float>();\n"
                                    "auto tile = carbide::block::shared<float, 1>();\n"
                                    "dynamic[0] = 1.f; tile[0] = 2.f;"));
  EXPECT_FALSE(p.proven("dynamic[0]"));
  EXPECT_TRUE(p.proven("tile[0]"));
}

// Without a contract the block may be any size: only constant indexes are proven.
TEST(ProvenSubscripts, KernelWithoutContractProvesOnlyConstants) {
  const Proofs p = proofs_of("CARBIDE_KERNEL\n"
                             "void f(carbide::disjoint_span<float> out) {\n"
                             "  auto lid = carbide::thread::local_index();\n"
                             "  auto tile = carbide::block::shared<float, 1024>();\n"
                             "  tile[lid] = 1.f; tile[3] = 2.f;\n"
                             "}\n");
  EXPECT_FALSE(p.proven("tile[lid]"));
  EXPECT_TRUE(p.proven("tile[3]"));
}

// A helper's one text serves every kernel that calls it: its index must fit every calling block.
TEST(ProvenSubscripts, HelperProvenOnlyInRangeInEveryCallingBlock) {
  const std::string helper = "void fill() {\n"
                             "  auto row = carbide::block::shared<float, 128>();\n"
                             "  row[carbide::thread::thread_idx().x] = 0.f;\n"
                             "}\n";
  const Proofs narrow = proofs_of(helper + kernel("a", "domain = 1, block = (128, 1, 1)", "fill();"));
  EXPECT_TRUE(narrow.proven("row[carbide::thread::thread_idx().x]"));
  const Proofs both = proofs_of(helper + kernel("a", "domain = 1, block = (128, 1, 1)", "fill();") +
                                kernel("b", "domain = 1, block = (256, 1, 1)", "fill();"));
  EXPECT_FALSE(both.proven("row[carbide::thread::thread_idx().x]"));
}

// One template text serves every instantiation: its index must fit each one's array.
TEST(ProvenSubscripts, TemplateProvenOnlyInRangeInEveryInstantiation) {
  const std::string helper = "template <std::size_t N>\n"
                             "void fill() {\n"
                             "  auto row = carbide::block::shared<float, N>();\n"
                             "  row[carbide::thread::thread_idx().x] = 0.f;\n"
                             "}\n";
  const Proofs wide = proofs_of(helper + kernel("f", "domain = 1, block = (256, 1, 1)", "fill<256>(); fill<512>();"));
  EXPECT_TRUE(wide.proven("row[carbide::thread::thread_idx().x]"));
  const Proofs mixed = proofs_of(helper + kernel("f", "domain = 1, block = (256, 1, 1)", "fill<256>(); fill<128>();"));
  EXPECT_FALSE(mixed.proven("row[carbide::thread::thread_idx().x]"));
}

// `if (B >= 512)` is constant false in the instances with B = 128 and 256, which never run its
// access; the access is inside the array with B = 1024, and not with B = 512.
TEST(ProvenSubscripts, AccessesInAConstantFalseBranchOfAnInstanceCountAsProvenThere) {
  const std::string helper = "template <unsigned B>\n"
                             "void fold() {\n"
                             "  auto s = carbide::block::shared<float, B>();\n"
                             "  const unsigned t = carbide::thread::thread_idx().x;\n"
                             "  if (B >= 512) { if (t < 256) s[t + 300] = 0.f; }\n"
                             "}\n";
  const Proofs folded = proofs_of(helper + kernel("f", "domain = 1, block = (256, 1, 1)", "fold<128>(); fold<256>(); fold<1024>();"));
  EXPECT_TRUE(folded.proven("s[t + 300]"));
  const Proofs too_small = proofs_of(helper + kernel("f", "domain = 1, block = (256, 1, 1)", "fold<128>(); fold<512>();"));
  EXPECT_FALSE(too_small.proven("s[t + 300]"));
}

}  // namespace
