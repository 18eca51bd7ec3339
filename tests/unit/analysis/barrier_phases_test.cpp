// barrier_phases: a function's shared-memory accesses, whether two of them may run at once in two
// threads of a block (read off the CFG, so goto, switch, continue and ?: are edges like any
// other), the loops whose last iteration one of them runs in, and what may differ between them.
#include "analysis/barrier_phases.hpp"

#include "analysis/thread_values.hpp"
#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using carbide::analysis::BarrierPhases;
using carbide::analysis::BlockShape;
using carbide::analysis::SharedAccess;
using carbide::analysis::ThreadValues;
using namespace carbide::testing;

struct Phases {
  std::unique_ptr<clang::ASTUnit> ast;
  std::unique_ptr<ThreadValues> values;
  BarrierPhases phases;

  // The access whose source text is `spelled` (an access in a helper: the call's text).
  const SharedAccess& access(const std::string& spelled) const {
    for (const SharedAccess& access : phases.accesses)
      if (text(ast->getASTContext(), access.expr) == spelled) return access;
    ADD_FAILURE() << "no access " << spelled;
    return phases.accesses.front();
  }
  bool concurrent(const std::string& a, const std::string& b) const {
    return phases.may_share_phase(access(a), access(b));
  }
};

// `body` runs in f() in a 256-thread block, with `tile`, `lid`, `t` (the thread's x), `b` (the
// block's x, one value for the whole block), `left` (a counter all threads step alike) and `r`.
Phases phases_of(const std::string& body, const std::string& helpers = "") {
  Phases result;
  result.ast = parse(helpers + "float f() {\n  auto tile = carbide::block::shared<float, 512>();\n"
                     "  auto lid = carbide::thread::local_index();\n"
                     "  const unsigned t = carbide::thread::thread_idx().x;\n"
                     "  const unsigned b = carbide::thread::block_idx().x;\n  unsigned left = b % 4;\n  float r = 0.f;\n" +
                     body + "\n  return r;\n}\n");
  EXPECT_TRUE(result.ast);
  const clang::FunctionDecl* f = function_named(result.ast->getASTContext(), "f");
  result.values = std::make_unique<ThreadValues>(result.ast->getASTContext(), f, BlockShape{{256, 1, 1}});
  result.phases = carbide::analysis::find_barrier_phases(*result.values);
  return result;
}

TEST(BarrierPhases, ABarrierSeparatesWhatItStandsBetween) {
  const Phases p = phases_of(
      "tile[lid] = 1.f;\n"
      "r = tile[t + 1];\n"
      "carbide::block::sync();\n"
      "r += tile[t + 2];");
  EXPECT_TRUE(p.concurrent("tile[lid]", "tile[t + 1]"));
  EXPECT_FALSE(p.concurrent("tile[lid]", "tile[t + 2]"));
  EXPECT_FALSE(p.concurrent("tile[t + 1]", "tile[t + 2]"));
}

// Each access is one of the function's, classified by how it is used.
TEST(BarrierPhases, AccessesAreFoundWithTheirUse) {
  const Phases p = phases_of("tile[lid] = 1.f;\nr = tile[t + 1];\ntile.fetch_add(t, 1.f);");
  ASSERT_EQ(p.phases.accesses.size(), 3u);
  EXPECT_TRUE(p.access("tile[lid]").writes);
  EXPECT_FALSE(p.access("tile[lid]").reads);
  EXPECT_TRUE(p.access("tile[t + 1]").reads);
  EXPECT_FALSE(p.access("tile[t + 1]").writes);
  EXPECT_TRUE(p.access("tile.fetch_add(t, 1.f)").atomic);
}

// A loop made of goto, with no barrier in it: the read of one pass runs at once with the write of
// the next, though the read comes later in the source.
TEST(BarrierPhases, AGotoLoopBringsALaterAccessBeforeAnEarlierOne) {
  const Phases with_goto = phases_of(
      "carbide::block::sync();\n"
      "again:\n"
      "tile[lid] = 1.f;\n"
      "carbide::block::sync();\n"
      "r += tile[t + 1];\n"
      "if (left-- > 0) goto again;");
  EXPECT_TRUE(with_goto.concurrent("tile[lid]", "tile[t + 1]"));
  const Phases with_barrier = phases_of(
      "again:\n"
      "tile[lid] = 1.f;\n"
      "carbide::block::sync();\n"
      "r += tile[t + 1];\n"
      "carbide::block::sync();\n"
      "if (left-- > 0) goto again;");
  EXPECT_FALSE(with_barrier.concurrent("tile[lid]", "tile[t + 1]"));
}

// A goto over a barrier leaves the code on both sides of it in one phase.
TEST(BarrierPhases, AGotoOverABarrierJoinsItsSides) {
  const Phases p = phases_of(
      "tile[lid] = 1.f;\n"
      "if (b > 4) goto past;\n"
      "carbide::block::sync();\n"
      "past:\n"
      "r = tile[t + 1];");
  EXPECT_TRUE(p.concurrent("tile[lid]", "tile[t + 1]"));
}

// A case below the barrier is entered without passing it.
TEST(BarrierPhases, ASwitchEntersBelowABarrier) {
  const Phases falls_through = phases_of(
      "tile[lid] = 1.f;\n"
      "switch (b) {\n"
      "  case 0: carbide::block::sync(); [[fallthrough]];\n"
      "  case 1: r = tile[t + 1]; break;\n"
      "  default: break;\n"
      "}");
  EXPECT_TRUE(falls_through.concurrent("tile[lid]", "tile[t + 1]"));
  const Phases every_way = phases_of(
      "tile[lid] = 1.f;\n"
      "switch (b) {\n"
      "  case 0: carbide::block::sync(); r = tile[t + 1]; break;\n"
      "  default: carbide::block::sync(); break;\n"
      "}");
  EXPECT_FALSE(every_way.concurrent("tile[lid]", "tile[t + 1]"));
}

// A continue that skips the loop's last barrier: the read of one iteration meets the write of the
// next.
TEST(BarrierPhases, AContinueSkippingTheLastBarrierJoinsIterations) {
  const char* loop =
      "for (unsigned i = 0; i < b; ++i) {\n"
      "  tile[lid] = float(i);\n"
      "  carbide::block::sync();\n"
      "  r += tile[t + 1];\n"
      "  %s\n"
      "  carbide::block::sync();\n"
      "}";
  char with_continue[512], without[512];
  std::snprintf(with_continue, sizeof with_continue, loop, "if (b > 3) continue;");
  std::snprintf(without, sizeof without, loop, "");
  EXPECT_TRUE(phases_of(with_continue).concurrent("tile[lid]", "tile[t + 1]"));
  EXPECT_FALSE(phases_of(without).concurrent("tile[lid]", "tile[t + 1]"));
}

// Threads part at a branch whose test differs between them, and are then in one phase on both
// ways; a test the whole block shares sends every thread the same way.
TEST(BarrierPhases, OnlyAThreadDependentBranchJoinsItsWays) {
  const Phases divergent = phases_of("if (t < 32) tile[5] = 1.f;\nelse r = tile[2 + 3];");
  EXPECT_TRUE(divergent.concurrent("tile[5]", "tile[2 + 3]"));
  const Phases uniform = phases_of("if (b < 32) tile[5] = 1.f;\nelse r = tile[2 + 3];");
  EXPECT_FALSE(uniform.concurrent("tile[5]", "tile[2 + 3]"));
}

// ?: is a branch of the CFG like an if.
TEST(BarrierPhases, AConditionalOperatorIsABranch) {
  const Phases p = phases_of("r = t < 32 ? (tile[lid] = 1.f) : tile[t + 1];");
  EXPECT_TRUE(p.concurrent("tile[lid]", "tile[t + 1]"));
  const Phases uniform = phases_of("r = b < 32 ? (tile[lid] = 1.f) : tile[t + 1];");
  EXPECT_FALSE(uniform.concurrent("tile[lid]", "tile[t + 1]"));
}

// A loop whose every pass meets a barrier and that is left only by its uniform test: a thread
// past it runs at once only with a thread in its last iteration.
TEST(BarrierPhases, ALoopEndedByItsTestIsInItsLastIteration) {
  const Phases ended = phases_of(
      "for (unsigned s = 0; s < 4; ++s) {\n"
      "  carbide::block::sync();\n"
      "  tile[s * 128 + t] = 1.f;\n"
      "}\n"
      "r = tile[t + 1];");
  const SharedAccess& inner = ended.access("tile[s * 128 + t]");
  const SharedAccess& outer = ended.access("tile[t + 1]");
  ASSERT_TRUE(ended.phases.may_share_phase(inner, outer));
  const auto loops = ended.phases.loops_ended_between(inner, outer);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_TRUE(llvm::isa<clang::ForStmt>(loops[0]));
  // A break leaves it elsewhere than by its test: no last iteration is known.
  const Phases broken = phases_of(
      "for (unsigned s = 0; s < 4; ++s) {\n"
      "  carbide::block::sync();\n"
      "  tile[s * 128 + t] = 1.f;\n"
      "  if (b == s) break;\n"
      "}\n"
      "r = tile[t + 1];");
  EXPECT_TRUE(broken.phases.loops_ended_between(broken.access("tile[s * 128 + t]"), broken.access("tile[t + 1]"))
                  .empty());
}

// What a thread at one access may hold differently from a thread at the other: a variable
// assigned between them, not one both see assigned before.
TEST(BarrierPhases, VariablesAssignedBetweenTwoAccessesMayDiffer) {
  const Phases p = phases_of(
      "unsigned before = b + 1;\n"
      "unsigned between = b;\n"
      "tile[before + t] = 1.f;\n"
      "between = b + 2;\n"
      "r = tile[between + before];");
  const auto changing = p.phases.changing_between(p.access("tile[before + t]"), p.access("tile[between + before]"));
  const auto* f = function_named(p.ast->getASTContext(), "f");
  const auto key = [&](const std::string& name) {
    const auto* ref = llvm::cast<clang::DeclRefExpr>(expr_spelled(p.ast->getASTContext(), f, name)->IgnoreImpCasts());
    return carbide::analysis::symbol_key(ref->getDecl());
  };
  EXPECT_TRUE(changing.count(key("between")));
  EXPECT_FALSE(changing.count(key("before")));
}

// In a loop without a barrier, two threads may be in different iterations: its counter differs.
TEST(BarrierPhases, ABarrierFreeLoopsCounterMayDiffer) {
  const Phases p = phases_of(
      "for (unsigned i = 0; i < 4; ++i) tile[i * 128 + t] = 1.f;\n"
      "r = tile[t];");
  const SharedAccess& write = p.access("tile[i * 128 + t]");
  ASSERT_TRUE(p.phases.may_share_phase(write, write));
  const auto* f = function_named(p.ast->getASTContext(), "f");
  const auto* counter = llvm::cast<clang::DeclRefExpr>(expr_spelled(p.ast->getASTContext(), f, "i")->IgnoreImpCasts());
  EXPECT_TRUE(p.phases.changing_between(write, write).count(carbide::analysis::symbol_key(counter->getDecl())));
}

// A helper with barriers: the accesses of its first phase meet what its caller does before the
// call, and two calls without a barrier between meet each other's last and first phases.
TEST(BarrierPhases, AHelpersFirstAndLastPhasesMeetAroundItsCalls) {
  const char* helper =
      "float stage(unsigned at) {\n"
      "  auto own = carbide::block::shared<float, 256>();\n"
      "  own[at] = 1.f;\n"
      "  carbide::block::sync();\n"
      "  return own[255 - at];\n"
      "}\n";
  const Phases once = phases_of("r = stage(t);", helper);
  ASSERT_EQ(once.phases.accesses.size(), 2u);
  EXPECT_FALSE(once.phases.may_share_phase(once.phases.accesses[0], once.phases.accesses[1]));
  const Phases twice = phases_of("r = stage(t);\nr += stage(t + 1);", helper);
  ASSERT_EQ(twice.phases.accesses.size(), 4u);
  // The last phase of the first call (its read) and the first phase of the second (its write).
  const SharedAccess* first_call_read = nullptr;
  const SharedAccess* second_call_write = nullptr;
  for (const SharedAccess& access : twice.phases.accesses) {
    const bool first_call = text(twice.ast->getASTContext(), access.expr) == "stage(t)";
    if (first_call && access.reads) first_call_read = &access;
    if (!first_call && access.writes) second_call_write = &access;
  }
  ASSERT_TRUE(first_call_read && second_call_write);
  EXPECT_TRUE(twice.phases.may_share_phase(*first_call_read, *second_call_write));
}

}  // namespace
