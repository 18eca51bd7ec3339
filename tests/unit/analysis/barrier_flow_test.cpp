// barrier_flow: a function's CFG as a graph of evaluation steps with its barriers marked; which
// steps reach which without passing a barrier, which lie on a barrier-free cycle, the natural
// loops, and the header copy of a loop whose first test passes.
#include "analysis/barrier_flow.hpp"

#include "analysis/thread_values.hpp"
#include "analysis_test_support.hpp"
#include "model/vocabulary.hpp"

#include <gtest/gtest.h>

namespace {

using carbide::analysis::BarrierFlow;
using carbide::analysis::BlockShape;
using carbide::analysis::ThreadValues;
using namespace carbide::testing;

bool is_barrier_element(const clang::CFGBlock&, const clang::CFGElement* element) {
  const auto statement = element ? element->getAs<clang::CFGStmt>() : std::nullopt;
  const auto* call = statement ? llvm::dyn_cast<clang::CallExpr>(statement->getStmt()) : nullptr;
  return call != nullptr && carbide::model::vocabulary::is_barrier(call);
}

struct Flow {
  std::unique_ptr<clang::ASTUnit> ast;
  const clang::FunctionDecl* f = nullptr;
  std::unique_ptr<ThreadValues> values;  // owns the CFG
  std::unique_ptr<BarrierFlow> flow;

  // The one node of the call spelled `spelled`.
  unsigned call_node(const std::string& spelled) const {
    const clang::Expr* call = expr_spelled(ast->getASTContext(), f, spelled);
    EXPECT_TRUE(call) << spelled;
    const auto nodes = flow->nodes_of(call);
    EXPECT_EQ(nodes.size(), 1u) << spelled;
    return nodes.empty() ? 0 : nodes.front();
  }
  bool reaches(const std::string& from, const std::string& to) const {
    return flow->reachable_from(call_node(from)).test(call_node(to));
  }
};

// `body` in f(n), with `mark(k)` calls to name places; loops whose first test passes are those
// `enters_body_first` says.
Flow flow_of(const std::string& body, bool enters_body_first = false) {
  Flow result;
  result.ast = parse("void mark(int);\nvoid f(unsigned n) {\n" + body + "\n}\n");
  EXPECT_TRUE(result.ast);
  result.f = function_named(result.ast->getASTContext(), "f");
  result.values = std::make_unique<ThreadValues>(result.ast->getASTContext(), result.f, BlockShape{{256, 1, 1}});
  const clang::CFG* cfg = result.values->control().cfg();
  EXPECT_TRUE(cfg);
  result.flow = std::make_unique<BarrierFlow>(*cfg, is_barrier_element,
                                              [&](const clang::Stmt*) { return enters_body_first; });
  return result;
}

TEST(BarrierFlow, BarriersAreMarkedAndNeverReached) {
  const Flow f = flow_of("mark(1);\ncarbide::block::sync();\nmark(2);");
  const unsigned barrier = f.call_node("carbide::block::sync()");
  EXPECT_TRUE(f.flow->nodes()[barrier].barrier);
  EXPECT_FALSE(f.flow->nodes()[f.call_node("mark(1)")].barrier);
  EXPECT_FALSE(f.reaches("mark(1)", "mark(2)"));
  EXPECT_FALSE(f.flow->reachable_from(f.call_node("mark(1)")).test(barrier));
  EXPECT_FALSE(f.flow->reaching(f.call_node("mark(2)")).test(f.call_node("mark(1)")));
}

// A node reaches itself only around a cycle.
TEST(BarrierFlow, ANodeReachesItselfOnlyByACycle) {
  const Flow straight = flow_of("mark(1);\nmark(2);");
  EXPECT_TRUE(straight.reaches("mark(1)", "mark(2)"));
  EXPECT_FALSE(straight.reaches("mark(2)", "mark(1)"));
  EXPECT_FALSE(straight.reaches("mark(1)", "mark(1)"));
  const Flow loop = flow_of("for (unsigned i = 0; i < n; ++i) mark(1);");
  EXPECT_TRUE(loop.reaches("mark(1)", "mark(1)"));
  EXPECT_TRUE(loop.flow->on_barrier_free_cycle(loop.call_node("mark(1)")));
}

TEST(BarrierFlow, ABarrierInTheLoopBreaksItsCycle) {
  const Flow f = flow_of("for (unsigned i = 0; i < n; ++i) { mark(1); carbide::block::sync(); }");
  EXPECT_FALSE(f.reaches("mark(1)", "mark(1)"));
  EXPECT_FALSE(f.flow->on_barrier_free_cycle(f.call_node("mark(1)")));
}

// goto, switch, break and continue are edges like any other.
TEST(BarrierFlow, GotoMakesALoop) {
  const Flow f = flow_of("again:\nmark(1);\nif (n-- > 0) goto again;\nmark(2);");
  EXPECT_TRUE(f.reaches("mark(1)", "mark(1)"));
  EXPECT_TRUE(f.flow->on_barrier_free_cycle(f.call_node("mark(1)")));
  EXPECT_EQ(f.flow->natural_loops().size(), 1u);
  const clang::CFGBlock* header = f.flow->natural_loops().begin()->first;
  EXPECT_TRUE(f.flow->in_loop(header, f.call_node("mark(1)")));
  EXPECT_FALSE(f.flow->in_loop(header, f.call_node("mark(2)")));
}

TEST(BarrierFlow, ACaseIsReachedFromTheSwitchNotFromTheCaseAbove) {
  const Flow f = flow_of(
      "mark(0);\n"
      "switch (n) {\n"
      "  case 0: mark(1); carbide::block::sync(); break;\n"
      "  case 1: mark(2); break;\n"
      "}\n"
      "mark(3);");
  EXPECT_TRUE(f.reaches("mark(0)", "mark(2)"));
  EXPECT_FALSE(f.reaches("mark(1)", "mark(2)"));
  EXPECT_FALSE(f.reaches("mark(1)", "mark(3)"));
  EXPECT_TRUE(f.reaches("mark(2)", "mark(3)"));
}

TEST(BarrierFlow, ContinueGoesRoundTheRestOfTheBody) {
  const Flow f = flow_of(
      "for (unsigned i = 0; i < n; ++i) {\n"
      "  mark(1);\n"
      "  if (i == 2) continue;\n"
      "  carbide::block::sync();\n"
      "}");
  EXPECT_TRUE(f.reaches("mark(1)", "mark(1)"));
  const Flow without = flow_of("for (unsigned i = 0; i < n; ++i) { mark(1); carbide::block::sync(); }");
  EXPECT_FALSE(without.reaches("mark(1)", "mark(1)"));
}

// The header of a loop whose first test passes gets a copy that leads only into the body: the
// code before the loop does not flow past it the first time.
TEST(BarrierFlow, ALoopThatRunsOnceIsEnteredThroughItsBody) {
  const char* body =
      "mark(0);\n"
      "for (unsigned i = 0; i < 4; ++i) { carbide::block::sync(); mark(1); }\n"
      "mark(2);";
  const Flow may_skip = flow_of(body, false);
  EXPECT_TRUE(may_skip.reaches("mark(0)", "mark(2)"));
  const Flow runs_once = flow_of(body, true);
  EXPECT_FALSE(runs_once.reaches("mark(0)", "mark(2)"));
  // The loop's own way out stays: the last iteration flows past it.
  EXPECT_TRUE(runs_once.reaches("mark(1)", "mark(2)"));
  bool copied = false;
  for (const BarrierFlow::Node& node : runs_once.flow->nodes()) copied = copied || node.first_entry_copy;
  EXPECT_TRUE(copied);
}

// A block's terminator is its own node, after its elements.
TEST(BarrierFlow, TerminatorsAreNodes) {
  const Flow f = flow_of("if (n > 2) mark(1);\nmark(2);");
  bool found = false;
  for (const clang::CFGBlock* block : *f.values->control().cfg()) {
    if (!llvm::isa_and_nonnull<clang::IfStmt>(block->getTerminatorStmt())) continue;
    found = true;
    const unsigned terminator = f.flow->terminator_of(block);
    EXPECT_EQ(f.flow->nodes()[terminator].element, nullptr);
    EXPECT_EQ(f.flow->nodes()[terminator].successors.size(), 2u);
    EXPECT_TRUE(f.flow->reachable_from(terminator).test(f.call_node("mark(1)")));
  }
  EXPECT_TRUE(found);
}

}  // namespace
