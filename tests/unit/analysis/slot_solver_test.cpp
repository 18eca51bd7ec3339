// SlotSolver: which pairs of shared accesses Z3 shows never meet for two different threads, on
// the index shapes textbook kernels use, and which real collisions it leaves reported.
#include "analysis/slot_solver.hpp"

#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using carbide::analysis::BlockShape;
using carbide::analysis::SharedAccess;
using carbide::analysis::SlotSolver;
using carbide::analysis::ThreadValues;
using namespace carbide::testing;

// Whether the solver proves the first and last shared accesses of `body` distinct, in a block of
// `threads` threads (one-dimensional), with `variant` the variables that change between them.
bool distinct(const std::string& body, unsigned threads, std::set<std::string> variant_names = {}) {
  auto ast = parse("void f(unsigned n) {\n  auto s = carbide::block::shared<unsigned, 4096>();\n"
                   "  const unsigned t = carbide::thread::thread_idx().x;\n" + body + "\n}\n");
  EXPECT_TRUE(ast);
  clang::ASTContext& context = ast->getASTContext();
  const clang::FunctionDecl* f = function_named(context, "f");
  const ThreadValues values(context, f, BlockShape{{threads, 1, 1}});
  const auto phases = carbide::analysis::find_barrier_phases(values);
  EXPECT_GE(phases.accesses.size(), 1u);
  std::set<std::string> variant;
  struct Vars : clang::RecursiveASTVisitor<Vars> {
    std::set<std::string>* names;
    std::set<std::string>* keys;
    bool VisitVarDecl(clang::VarDecl* var) {
      if (names->count(var->getNameAsString())) keys->insert(carbide::analysis::symbol_key(var));
      return true;
    }
  } vars;
  vars.names = &variant_names;
  vars.keys = &variant;
  vars.TraverseStmt(f->getBody());
  const std::vector<const clang::Stmt*> last_iteration_of[2] = {
      phases.loops_ended_between(phases.accesses.front(), phases.accesses.back()),
      phases.loops_ended_between(phases.accesses.back(), phases.accesses.front())};
  return SlotSolver(values).proves_distinct(phases.accesses.front(), phases.accesses.back(), variant,
                                            last_iteration_of);
}

TEST(SlotSolver, BlockStrideLoop) {
  EXPECT_TRUE(distinct("for (unsigned i = t; i < 256; i += carbide::thread::block_dim().x) s[i] = 0;", 192, {"i"}));
  // A stride smaller than the block lets two threads meet.
  EXPECT_FALSE(distinct("for (unsigned i = t; i < 256; i += 64) s[i] = 0;", 192, {"i"}));
}

// Two counters stepped by a comma list (`pos += B, ++k`): each keeps its own step.
TEST(SlotSolver, CommaSteppedCounters) {
  EXPECT_TRUE(distinct("for (unsigned i = t, k = 0; i < 256; i += carbide::thread::block_dim().x, ++k) s[i] = k;",
                       192, {"i", "k"}));
  EXPECT_FALSE(distinct("for (unsigned i = t, k = 0; i < 256; i += 64, ++k) s[i] = k;", 192, {"i", "k"}));
}

TEST(SlotSolver, ConstantStepLoop) {
  EXPECT_TRUE(distinct("const unsigned tx = t % 32, ty = t / 32;\n"
                       "for (int j = 0; j < 32; j += 8) s[(ty + j) * 33 + tx] = 0;", 256, {"j"}));
  EXPECT_FALSE(distinct("const unsigned tx = t % 32, ty = t / 32;\n"
                        "for (int j = 0; j < 32; j += 4) s[(ty + j) * 33 + tx] = 0;", 256, {"j"}));
}

// A counter doubled by its loop (`s *= 2` from 1) stays a power of two: it never shifts its
// start out to 0, where the loop's `s < 256` would hold and every 2·s·t would be slot 0.
TEST(SlotSolver, DoublingCounterNeverWrapsToZero) {
  const std::string loop = "for (unsigned s2 = 1; s2 < 256; s2 *= 2) {\n"
                           "  const unsigned index = 2 * s2 * t;\n";
  EXPECT_TRUE(distinct(loop + "  if (index < 256) s[index] = s[index + s2];\n}", 256));
  EXPECT_TRUE(distinct(loop + "  if (index < 256) s[index] = 0;\n}", 256));
  // A stride of s, not 2·s: thread t reads the slot thread t + 1 writes.
  EXPECT_FALSE(distinct("for (unsigned s2 = 1; s2 < 256; s2 *= 2) {\n"
                        "  const unsigned index = s2 * t;\n"
                        "  if (index < 256) s[index] = s[index + s2];\n}", 256));
}

TEST(SlotSolver, BitonicButterfly) {
  const std::string loop = "for (unsigned stride = 256; stride > 0; stride >>= 1) {\n"
                           "  const unsigned pos = 2 * t - (t & (stride - 1));\n";
  EXPECT_TRUE(distinct(loop + "  s[pos] = s[pos + stride];\n}", 256));
  // Without the mask every thread's partner is another's own slot.
  EXPECT_FALSE(distinct("for (unsigned stride = 256; stride > 0; stride >>= 1) {\n"
                        "  const unsigned pos = 2 * t;\n  s[pos] = s[pos + stride];\n}", 256));
}

TEST(SlotSolver, XorPartner) {
  EXPECT_TRUE(distinct("for (unsigned j = 128; j > 0; j >>= 1) {\n  const unsigned ixj = t ^ j;\n"
                       "  if (ixj > t) { s[t] = s[ixj]; }\n}", 256));
  EXPECT_FALSE(distinct("for (unsigned j = 128; j > 0; j >>= 1) {\n  const unsigned ixj = t ^ j;\n"
                        "  s[t] = s[ixj];\n}", 256));
}

TEST(SlotSolver, OwnSlotReadByOneThread) {
  EXPECT_TRUE(distinct("if (t < n) s[t] = 1;\nunsigned v = 0;\nif (t == 0) v = s[0];", 256));
  EXPECT_FALSE(distinct("if (t < n) s[t] = 1;\nunsigned v = 0;\nif (t == 1) v = s[0];", 256));
  // A condition that holds a temporary (thread_idx()'s dim3) is still a condition.
  EXPECT_TRUE(distinct("if (t < n) s[t] = 1;\nunsigned v = 0;\nif (carbide::thread::thread_idx().x == 0) v = s[0];", 256));
  // The last step of a tree reduction, then thread 0 reading its own slot.
  EXPECT_TRUE(distinct("for (unsigned stride = 128; stride > 0; stride >>= 1) {\n  carbide::block::sync();\n"
                       "  if (carbide::thread::thread_idx().x < stride) s[carbide::thread::thread_idx().x] += 1;\n}\n"
                       "unsigned v = 0;\nif (carbide::thread::thread_idx().x == 0) v = s[0];", 256));
}

// A leader form's pointer is non-null for the first thread of its block (or lane 0 of its warp)
// alone, and for it only where its element lies inside the view: a test of the pointer gives the
// solver no more than that.
TEST(SlotSolver, LeaderFormsHoldForTheirFirstThreadAlone) {
  const std::string write_own = "carbide::disjoint_span<float> out = {};\nif (t < n) s[t] = 1;\nunsigned v = 0;\n";
  auto warp = "auto warp = carbide::thread::warp_index_1d();\n";
  auto lid = "auto lid = carbide::thread::local_index();\n";
  EXPECT_TRUE(distinct(write_own + lid + "if (float* p = out.get_mut_block(lid)) v = s[0];", 256));
  EXPECT_TRUE(distinct(write_own + warp + "if (float* p = out.get_mut_warp_leader(warp)) v = s[0];", 32));
  // Lane 0 of every warp, not thread 0 alone.
  EXPECT_FALSE(distinct(write_own + warp + "if (float* p = out.get_mut_warp_leader(warp)) v = s[0];", 256));
  // A null pointer is no sign of another thread: thread 0 of a block past the view's end has one.
  EXPECT_FALSE(distinct(write_own + lid + "float* p = out.get_mut_block(lid);\nif (!p && t == 0) v = s[1];", 256));
}

// Blelloch's tree: `offset` doubles while the counter halves, so a thread's pair
// offset·(2t + 1) − 1, offset·(2t + 2) − 1 meets no other thread's.
const std::string kUpSweep = "unsigned offset = 1;\n"
                             "for (unsigned d = 256; d > 0; d >>= 1) {\n  carbide::block::sync();\n"
                             "  if (t < d) {\n    const unsigned ai = offset * (2 * t + 1) - 1;\n";

TEST(SlotSolver, BlellochUpSweep) {
  EXPECT_TRUE(distinct(kUpSweep + "    const unsigned bi = offset * (2 * t + 2) - 1;\n"
                                  "    s[bi] += s[ai];\n  }\n  offset *= 2;\n}", 256));
  // Partners two apart: thread t + 1's left is thread t's right.
  EXPECT_FALSE(distinct(kUpSweep + "    const unsigned bi = offset * (2 * t + 3) - 1;\n"
                                   "    s[bi] += s[ai];\n  }\n  offset *= 2;\n}", 256));
  // An offset the loop does not step in time with its counter may be 0: every thread meets.
  EXPECT_FALSE(distinct(kUpSweep + "    const unsigned bi = offset * (2 * t + 2) - 1;\n"
                                   "    s[bi] += s[ai];\n  }\n  offset = offset * 2 * n;\n}", 256));
}

// After the up-sweep, the code behind the loop shares a phase only with its last iteration
// (d = 1), where thread 0 alone writes slot 511.
TEST(SlotSolver, LastIterationBeforeTheLoopEnds) {
  const std::string loop = kUpSweep + "    const unsigned bi = offset * (2 * t + 2) - 1;\n"
                                      "    s[bi] += s[ai];\n  }\n  offset *= 2;\n}\n";
  EXPECT_TRUE(distinct(loop + "if (t == 0) s[511] = 0;", 256));
  EXPECT_FALSE(distinct(loop + "if (t == 1) s[511] = 0;", 256));
}

// The down-sweep: `offset` starts where the up-sweep's trip count left it and halves.
TEST(SlotSolver, BlellochDownSweep) {
  const std::string sweeps = "unsigned offset = 1;\n"
                             "for (unsigned d = 256; d > 0; d >>= 1) {\n  carbide::block::sync();\n  offset *= 2;\n}\n"
                             "for (unsigned d = 1; d < 512; d *= 2) {\n  offset >>= 1;\n  carbide::block::sync();\n"
                             "  if (t < d) {\n    const unsigned ai = offset * (2 * t + 1) - 1;\n"
                             "    const unsigned bi = offset * (2 * t + 2) - 1;\n";
  EXPECT_TRUE(distinct(sweeps + "    const unsigned v = s[ai];\n    s[ai] = s[bi];\n    s[bi] += v;\n  }\n}", 256));
  // One level too many: offset reaches 0 in the last iteration and two threads write slot −1.
  std::string deeper = sweeps;
  deeper.replace(deeper.find("d < 512"), 7, "d < 1024");
  EXPECT_FALSE(distinct(deeper + "    const unsigned v = s[ai];\n    s[ai] = s[bi];\n    s[bi] += v;\n  }\n}", 256));
}

// A value the solver cannot encode (here a float converted back) stands for any value, each
// thread's its own: a thread's column at a permuted position (cuda-samples histogram64's
// `threadPos`) stays its own whatever row the data picks, while a slot the data alone picks is
// shared.
TEST(SlotSolver, UnencodedValuesAreAnyValueOfTheThreadsOwn) {
  const std::string data = "const unsigned data = unsigned(float(t) * 1.5f);\n";
  EXPECT_TRUE(distinct(data + "const unsigned pos = (t & 15) << 2 | (t & 48) >> 4;\n"
                              "s[pos + ((data >> 2) & 63u) * 64] += 1;", 64));
  EXPECT_FALSE(distinct(data + "s[(data & 63u) * 64] += 1;", 64));
  // Not a permutation: threads t and t + 32 share a column.
  EXPECT_FALSE(distinct(data + "s[t % 32 + ((data >> 2) & 63u) * 64] += 1;", 64));
  // A variable assigned in several places is any value at each use.
  EXPECT_FALSE(distinct("unsigned v = t;\nif (n > 3) v = unsigned(float(t) * 1.5f);\ns[v] = 1;", 64));
}

// A counter is modelled wrapping as its type wraps; only where its loop's own test proves that no
// value it lets in can wrap does the counter also stay on its start's side. Wrapped values then
// meet: `j` reaches 0x100 again from 0xFFFFFF00, and `v`, whose loop ends on another counter,
// shifts its bit out to 0.
TEST(SlotSolver, CountersThatMayWrapAreModelledWrapping) {
  EXPECT_FALSE(distinct("for (unsigned j = t == 0 ? 0xFFFFFF00u : 0x100u; j != 0x400u; j += 0x100u)\n"
                        "  if (t < 2) s[j & 2047u] = 0;", 256, {"j"}));
  EXPECT_FALSE(distinct("for (unsigned v = 1u << 30, m = 0; m < 3; v <<= 1, ++m)\n"
                        "  if (t < 2) s[(v >> 30) + 2 * t] = 0;", 256, {"v", "m"}));
  // Bounded by their own tests, they stay proven.
  EXPECT_TRUE(distinct("for (unsigned j = t == 0 ? 0xFFFFFF00u : 0x100u; j < 0x400u; j += 0x100u)\n"
                       "  if (t < 2) s[j & 2047u] = 0;", 256, {"j"}));
  EXPECT_FALSE(distinct("auto lid = carbide::thread::local_index();\n"
                        "for (unsigned v = 1u << 30, m = 0; m < 3; v <<= 1, ++m)\n"
                        "  if (lid.get() < 2) s[(v >> 30) + 2 * lid.get()] = 0;", 256, {"v", "m"}));
}

TEST(SlotSolver, MixedRadixHalo) {
  EXPECT_TRUE(distinct("const unsigned tx = t % 16, ty = t / 16;\n"
                       "for (int i = 1; i < 9; ++i) s[ty * 160 + tx + i * 16] = 0;\n"
                       "for (int i = 9; i < 10; ++i) s[ty * 160 + tx + i * 16] = 1;", 64, {"i"}));
}

}  // namespace

// A slot reassigned by a step (cuda-samples scan's `pos += size`) is its value before the step,
// stepped, where one definition reaches each access: t and t + 256 never meet in a 256-thread
// block, t and t + 1 do, and so may slots that a second definition reaches.
namespace {
TEST(SlotSolver, ReassignedSlotsAreFollowedThroughTheirSteps) {
  EXPECT_TRUE(distinct("unsigned pos = 2 * t - (t & 255u);\n  s[pos] = 0;\n  pos += 256;\n  s[pos] = 1;", 256));
  EXPECT_TRUE(distinct("unsigned pos = t;\n  s[pos] = 0;\n  ++pos;\n  pos *= 2;\n  s[pos + 1000] = 1;", 256));
  EXPECT_FALSE(distinct("unsigned pos = t;\n  s[pos] = 0;\n  pos += 1;\n  s[pos] = 1;", 256));
  // Thread 44's first slot is 556, which pos = 300 gives the second access.
  EXPECT_FALSE(distinct("unsigned pos = t;\n  s[pos + 512] = 0;\n  if (n > 3) pos = 300;\n  pos += 256;\n  s[pos] = 1;", 256));
}
}  // namespace
