// The tile model's facts (values, shapes, problems) and the planner's choices, on small tile
// kernels parsed with <carbide/tile.hpp>.
#include "model/model_builder.hpp"
#include "model/vocabulary.hpp"
#include "tile/tile_programs.hpp"

#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

#include <set>
#include <tuple>

namespace {

using namespace carbide;
using carbide::testing::parse;

struct Planned {
  std::unique_ptr<clang::ASTUnit> ast;
  model::Program program;
  std::unique_ptr<tile::TilePrograms> tiles;
  const tile::PlannedKernel& only() const { return tiles->kernels().front(); }
};

Planned plan(const std::string& code, const tile::TileTarget& target = {}) {
  Planned planned;
  planned.ast = parse("#include <carbide/tile.hpp>\nnamespace ct = carbide::tile;\nnamespace k {\n" + code + "\n}\n");
  EXPECT_TRUE(planned.ast);
  planned.program = model::build_program(planned.ast->getASTContext());
  planned.tiles = std::make_unique<tile::TilePrograms>(planned.ast->getASTContext(), planned.program, target);
  EXPECT_EQ(planned.tiles->kernels().size(), 1u);
  return planned;
}

const char* const kSoftmax = R"(
template <int B>
CARBIDE_TILE_KERNEL
void softmax(ct::out<float, ct::shape<1, B>> y, ct::in<float, 2> x) {
  auto t = ct::load_like(x, y, ct::pad(-INFINITY));
  auto e = ct::exp(t - ct::bcast<1>(ct::reduce_max<1>(t), t));
  y.store(e / ct::bcast<1>(ct::reduce_sum<1>(e), e));
}
template void softmax<1024>(ct::out<float, ct::shape<1, 1024>>, ct::in<float, 2>);
)";

TEST(TileModel, ReadsEachStatementAndItsShapesFromTheInstance) {
  const Planned planned = plan(kSoftmax);
  const tile::TileKernel& kernel = planned.only().model;
  EXPECT_TRUE(kernel.problems.empty());
  ASSERT_EQ(kernel.body.size(), 3u);
  EXPECT_EQ(kernel.body[0].kind, tile::StatementKind::Let);
  EXPECT_EQ(kernel.body[2].kind, tile::StatementKind::Store);
  const tile::Node& load = kernel.node(kernel.body[0].value);
  EXPECT_EQ(load.kind, tile::NodeKind::Load);
  EXPECT_EQ(load.like, "y");
  EXPECT_EQ(load.pad, "-INFINITY");
  EXPECT_EQ(load.type->shape_text(), "shape<1, 1024>");
  EXPECT_EQ(kernel.reduction_sites, 2);
  EXPECT_EQ(kernel.outs.at("y").shape_text(), "shape<1, 1024>");
  EXPECT_EQ(kernel.ins.at("x").rank, 2);
}

TEST(TileModel, ReductionRemovesItsAxisAndNumbersItsSite) {
  const Planned planned = plan(kSoftmax);
  const tile::TileKernel& kernel = planned.only().model;
  std::vector<const tile::Node*> reductions;
  for (const tile::Node& node : kernel.nodes)
    if (node.kind == tile::NodeKind::Reduce) reductions.push_back(&node);
  ASSERT_EQ(reductions.size(), 2u);
  EXPECT_EQ(reductions[0]->name, "reduce_max");
  EXPECT_EQ(reductions[0]->axis, 1);
  EXPECT_EQ(reductions[0]->type->shape_text(), "shape<1>");
  EXPECT_EQ(reductions[1]->site, 1);
}

TEST(TilePlanner, ElementwiseAndRowKernelsGetBlockedLayoutsOfSixteenByteChunks) {
  const Planned planned = plan(kSoftmax);
  EXPECT_EQ(planned.only().plan.vector, 4);     // four floats
  EXPECT_EQ(planned.only().plan.threads, 128);  // two of the row's 256 chunks a thread
  EXPECT_EQ(planned.only().plan.min_blocks, 0);  // fewer than 256 threads: no occupancy request
  EXPECT_FALSE(planned.only().plan.gemm);
  EXPECT_TRUE(planned.only().plan.problems.empty());
}

TEST(TilePlanner, NarrowestElementSetsTheVectorAndTheLastExtentBoundsIt) {
  const Planned planned = plan(R"(
CARBIDE_TILE_KERNEL
void widen(ct::out<float, ct::shape<4, 12>> y, ct::in<ct::bf16, 2> x) {
  y.store(ct::cast<float>(ct::load_like(x, y)));
})");
  EXPECT_EQ(planned.only().plan.vector, 4);  // bf16 would take 8, but 12 columns take 4
  EXPECT_EQ(planned.only().plan.threads, 32);
}

// Row kernels ask for the blocks that hold 80 KiB of rows an SM, but never so many that a thread
// has fewer than 40 registers (at 32 the 16 values a thread holds spill).
TEST(TilePlanner, RowKernelsAskForBlocksByRowBytesCappedByRegisters) {
  const Planned f32_rows = plan(R"(
CARBIDE_TILE_KERNEL
void softmax(ct::out<float, ct::shape<1, 4096>> y, ct::in<float, 2> x) {
  auto t = ct::load_like(x, y);
  y.store(t / ct::bcast<1>(ct::reduce_sum<1>(t), t));
})");
  EXPECT_EQ(f32_rows.only().plan.threads, 256);
  EXPECT_EQ(f32_rows.only().plan.min_blocks, 5);  // 16 KiB rows
  const Planned bf16_rows = plan(R"(
CARBIDE_TILE_KERNEL
void centre(ct::out<ct::bf16, ct::shape<1, 4096>> y, ct::in<ct::bf16, 2> x) {
  auto t = ct::cast<float>(ct::load_like(x, y));
  y.store(ct::cast<ct::bf16>(t - ct::bcast<1>(ct::reduce_sum<1>(t), t)));
})");
  EXPECT_EQ(bf16_rows.only().plan.threads, 256);
  EXPECT_EQ(bf16_rows.only().plan.min_blocks, 6);  // 8 KiB rows would take ten; 40 registers allow six
}

// A kernel whose every read the host can place (load_like, constant tile indexes) gets the
// whole-launch test: the outputs with their tile shapes, each load_like pair once, each fixed tile.
TEST(TilePlanner, ReadsTheHostCanPlaceGiveAWholeLaunchTest) {
  const Planned planned = plan(R"(
CARBIDE_TILE_KERNEL
void norm(ct::out<float, ct::shape<1, 512>> y, ct::in<float, 2> x, ct::in<float, 2> w) {
  auto pw = w.partition(ct::shape<1, 512>{});
  auto t = ct::load_like(x, y);
  y.store(t * ct::load_like(x, y) * pw.load(0, 0) + pw.load(0, 0));
})");
  const auto& whole = planned.only().plan.whole_launch;
  ASSERT_TRUE(whole);
  ASSERT_EQ(whole->outputs.size(), 1u);
  EXPECT_EQ(whole->outputs[0].first, "y");
  EXPECT_EQ(whole->outputs[0].second, (std::vector<std::int64_t>{1, 512}));
  ASSERT_EQ(whole->like_reads.size(), 1u);
  EXPECT_EQ(whole->like_reads.begin()->input, "x");
  EXPECT_EQ(whole->like_reads.begin()->output, "y");
  ASSERT_EQ(whole->fixed_reads.size(), 1u);
  EXPECT_EQ(whole->fixed_reads.begin()->input, "w");
  EXPECT_EQ(whole->fixed_reads.begin()->at, (std::vector<std::int64_t>{0, 0}));
  EXPECT_EQ(whole->fixed_reads.begin()->shape, (std::vector<std::int64_t>{1, 512}));
}

// A read at a coordinate (or a loop counter: tests/lit/translate/tile-kernels.cpp) is placed on
// the device only: no whole launch.
TEST(TilePlanner, ReadsAtDeviceValuesHaveNoWholeLaunch) {
  const Planned at_coordinate = plan(R"(
CARBIDE_TILE_KERNEL
void first_column(ct::out<float, ct::shape<1, 256>> y, ct::in<float, 2> x) {
  auto [i, j] = y.coord();
  auto px = x.partition(ct::shape<1, 256>{});
  y.store(px.load(i, 0));
})");
  EXPECT_TRUE(at_coordinate.only().model.problems.empty());
  EXPECT_FALSE(at_coordinate.only().plan.whole_launch);
}

// The sample's GEMM kernel, instantiated for one block tile.
std::string gemm_kernel(int bm, int bn, int bk) {
  const std::string shape = std::to_string(bm) + ", " + std::to_string(bn);
  return R"(
template <int BM, int BN, int BK>
CARBIDE_TILE_KERNEL
void gemm(ct::out<ct::bf16, ct::shape<BM, BN>> c, ct::in<ct::bf16, 2> a, ct::in<ct::bf16, 2> b) {
  auto [bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<BM, BK>{});
  auto pb = b.partition(ct::shape<BK, BN>{});
  auto acc = ct::zeros<float, ct::shape<BM, BN>>();
  for (int k : ct::irange(pa.tiles(1)))
    acc = ct::mma(pa.load(bm, k), pb.load(k, bn), acc);
  c.store(ct::cast<ct::bf16>(acc));
}
template void gemm<)" + shape + ", " + std::to_string(bk) + ">(ct::out<ct::bf16, ct::shape<" + shape +
         ">>, ct::in<ct::bf16, 2>, ct::in<ct::bf16, 2>);\n";
}

constexpr tile::TileTarget kHopper{true};

TEST(TilePlanner, RecognisesTheMmaLoopAsOneGemmPlan) {
  const Planned planned = plan(gemm_kernel(128, 256, 64));
  const tile::TilePlan& plan = planned.only().plan;
  ASSERT_TRUE(plan.gemm) << (plan.problems.empty() ? "" : plan.problems.front().message);
  EXPECT_EQ(plan.gemm->instruction, tile::GemmPlan::Instruction::MmaSync);
  EXPECT_EQ(plan.gemm->block_m, 128);
  EXPECT_EQ(plan.gemm->block_n, 256);
  EXPECT_EQ(plan.gemm->block_k, 64);
  EXPECT_EQ(plan.gemm->a, "a");
  EXPECT_EQ(plan.gemm->row, "bm");
  EXPECT_EQ(plan.gemm->column, "bn");
  EXPECT_EQ(plan.threads, 32 * plan.gemm->warps_m * plan.gemm->warps_n);
  EXPECT_GT(plan.dynamic_shared_bytes, 0u);
  EXPECT_FALSE(plan.whole_launch);  // the main loop masks its own k tiles
}

TEST(TilePlanner, OnlySm90aTranslationsGetWgmma) {
  EXPECT_TRUE(tile::tile_target({"sm_90a"}).wgmma);
  EXPECT_FALSE(tile::tile_target({"sm_90"}).wgmma);
  EXPECT_FALSE(tile::tile_target({"sm_80", "sm_90a"}).wgmma);  // one plan serves every image
  EXPECT_FALSE(tile::tile_target({"sm_100a"}).wgmma);           // Blackwell has no wgmma
  EXPECT_FALSE(tile::tile_target({}).wgmma);
}

TEST(TilePlanner, WgmmaPlanHasAProducerAndAConsumerPer64RowsAndStagesTheSharedMemoryHolds) {
  const Planned planned = plan(gemm_kernel(128, 256, 64), kHopper);
  const tile::TilePlan& plan = planned.only().plan;
  ASSERT_TRUE(plan.gemm) << (plan.problems.empty() ? "" : plan.problems.front().message);
  EXPECT_EQ(plan.gemm->instruction, tile::GemmPlan::Instruction::Wgmma);
  EXPECT_EQ(plan.threads, 128 * 3);
  EXPECT_EQ(plan.min_blocks, 1);
  // A stage holds (128 + 256) × 64 bf16 = 48 KiB and two 8-byte mbarriers; four fit in 227 KiB.
  EXPECT_EQ(plan.gemm->stages, 4);
  EXPECT_EQ(plan.dynamic_shared_bytes, 4u * (49152 + 16) + 1024);
  EXPECT_FALSE(plan.whole_launch);
}

TEST(TilePlanner, BlockTilesWgmmaCannotTakeFallBackToMmaSync) {
  // k tiles of 32 are half a swizzle row; 256 × 256 leaves a thread of five warpgroups too few
  // registers for its 128 accumulators.
  for (const auto& [bm, bn, bk] : {std::tuple{128, 256, 32}, std::tuple{256, 256, 64}}) {
    const Planned planned = plan(gemm_kernel(bm, bn, bk), kHopper);
    const tile::TilePlan& plan = planned.only().plan;
    ASSERT_TRUE(plan.gemm) << bm << "x" << bn << "x" << bk;
    EXPECT_EQ(plan.gemm->instruction, tile::GemmPlan::Instruction::MmaSync) << bm << "x" << bn << "x" << bk;
  }
}

// A block tile the sm80 loader cannot split evenly over its warps (128 × 192: 192 threads copy
// 24-row passes of A's 128 rows) keeps no GEMM plan: its k-loop runs as mma in the body, on four
// warps of whole rows, with the operands staged through shared memory each k step.
TEST(TilePlanner, BlockTilesTheMmaSyncLoaderCannotStageRunAsMmaInTheBody) {
  for (const auto& [bm, bn, bk] : {std::tuple{128, 192, 64}, std::tuple{64, 64, 64}, std::tuple{128, 128, 128}}) {
    const Planned planned = plan(gemm_kernel(bm, bn, bk));
    const tile::TilePlan& plan = planned.only().plan;
    EXPECT_FALSE(plan.gemm) << bm << "x" << bn << "x" << bk;
    EXPECT_TRUE(plan.problems.empty()) << bm << "x" << bn << "x" << bk;
    EXPECT_EQ(plan.mma_warps, 4) << bm << "x" << bn << "x" << bk;
    EXPECT_EQ(plan.threads, 128);
    EXPECT_EQ(plan.min_compute, 80);
    // A and B staged: (BM × BK + BK × BN) bf16.
    EXPECT_EQ(plan.layouts.scratch_bytes, std::uint64_t(bm * bk + bk * bn) * 2);
  }
}

// Layouts by unification: an attention loop's running maximum lives in the rows of S's C
// fragments, the accumulator in C fragments, P stays in registers (no conversion of it), and the
// loaded operands are blocked.
TEST(TilePlanner, AttentionValuesGetTheLayoutsTheirReadersNeed) {
  const Planned planned = plan(R"(
CARBIDE_TILE_KERNEL
void attention(ct::out<float, ct::shape<64, 64>> o, ct::in<ct::bf16, 2> q, ct::in<ct::bf16, 2> k, ct::in<ct::bf16, 2> v) {
  auto [bm, d] = o.coord();
  auto pq = q.partition(ct::shape<64, 64>{});
  auto pk = k.partition(ct::shape<64, 64>{});
  auto pv = v.partition(ct::shape<64, 64>{});
  auto qt = pq.load(bm, 0);
  auto m = ct::full<float, ct::shape<64>>(-INFINITY);
  auto acc = ct::zeros<float, ct::shape<64, 64>>();
  for (int j : ct::irange(pk.tiles(0))) {
    auto s = ct::mma(qt, ct::transpose(pk.load(j, 0)), ct::zeros<float, ct::shape<64, 64>>());
    auto m_new = ct::max(m, ct::reduce_max<1>(s));
    auto p = ct::exp(s - ct::bcast<1>(m_new, s));
    acc = ct::mma(ct::cast<ct::bf16>(p), pv.load(j, 0), acc * ct::bcast<1>(ct::exp(m - m_new), acc));
    m = m_new;
  }
  o.store(acc);
})");
  const tile::PlannedKernel& kernel = planned.only();
  const tile::TilePlan& plan = kernel.plan;
  ASSERT_TRUE(plan.problems.empty()) << plan.problems[0].message;
  EXPECT_EQ(plan.mma_warps, 4);
  EXPECT_EQ(plan.layouts.variables.at("acc").text(), "LM");
  EXPECT_EQ(plan.layouts.variables.at("m").text(), "ctd::rows_of<LM, 0>");
  EXPECT_EQ(plan.layouts.variables.at("qt").text(), "L0");
  EXPECT_EQ(plan.layouts.variables.at("p").text(), "LM");
  for (const tile::NodeLayout& node : plan.layouts.nodes) EXPECT_FALSE(node.relayout);
  // The first mma stages q and k (8 KiB each); the second only v, P being in registers.
  EXPECT_EQ(plan.layouts.scratch_bytes, 16384u);
}

TEST(TileModel, MismatchedOperandsAreAShapeProblemNamingBothShapes) {
  const Planned planned = plan(R"(
CARBIDE_TILE_KERNEL
void add(ct::out<float, ct::shape<4, 64>> y, ct::in<float, 2> a, ct::in<float, 2> b) {
  auto pb = b.partition(ct::shape<4, 32>{});
  auto [i, j] = y.coord();
  y.store(ct::load_like(a, y) + pb.load(i, j));
})");
  const auto& problems = planned.only().model.problems;
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].kind, tile::Problem::Kind::Shape);
  EXPECT_NE(problems[0].message.find("shape<4, 64> and shape<4, 32>"), std::string::npos);
}

TEST(TileModel, ABranchIsUnsupportedNotGuessed) {
  const Planned planned = plan(R"(
CARBIDE_TILE_KERNEL
void branch(ct::out<float, ct::shape<64>> y, ct::in<float, 1> x, int flag) {
  if (flag) y.store(ct::load_like(x, y));
})");
  const auto& problems = planned.only().model.problems;
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].kind, tile::Problem::Kind::Unsupported);
  EXPECT_NE(problems[0].message.find("ct::select"), std::string::npos);
}

// Every op <carbide/tile.hpp> declares in carbide::tile is in the catalogue, so the model can
// never meet an op it does not know.
TEST(TileVocabulary, EveryOpOfTheHeaderIsCatalogued) {
  auto ast = parse("#include <carbide/tile.hpp>\n");
  ASSERT_TRUE(ast);
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::SourceManager* sources;
    std::set<std::string> found;
    bool VisitFunctionDecl(clang::FunctionDecl* function) {
      const auto* space = llvm::dyn_cast<clang::NamespaceDecl>(function->getDeclContext());
      const bool in_tile_header =
          sources->getFilename(sources->getExpansionLoc(function->getLocation())).ends_with("carbide/tile.hpp");
      if (space && in_tile_header && space->getQualifiedNameAsString() == "carbide::tile")
        found.insert(function->getQualifiedNameAsString());
      return true;
    }
  } finder;
  finder.sources = &ast->getSourceManager();
  finder.TraverseDecl(ast->getASTContext().getTranslationUnitDecl());
  std::set<std::string> catalogued;
  for (const auto& entry : model::vocabulary::tile_functions()) catalogued.insert(entry.name.str());
  for (const std::string& name : finder.found) EXPECT_TRUE(catalogued.count(name)) << name << " is not catalogued";
  for (const std::string& name : catalogued) EXPECT_TRUE(finder.found.count(name)) << name << " is not in the header";
}

}  // namespace
