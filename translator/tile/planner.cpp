#include "tile/planner.hpp"

#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <cstdint>

namespace carbide::tile {
namespace {

// Also for row reductions: rows of 1024 chunks (4096 floats) measured 0.87 of the copy rate at
// 256 threads (four chunks each) and 0.69 at 512 (bench/results/2026-12-03-h200-session8.md).
constexpr int kMaxThreads = 256;
// Row kernels are limited by the bytes of rows an SM holds at once (the loads in flight). Asking
// ptxas for enough blocks to hold 80 KiB of input rows measured best for both row samples on the
// H200 (bench/results/2026-12-04-h200-session10.md): tile softmax (16 KiB f32 rows) at five
// blocks of 256, 0.99 of its twin, 0.965 at eight. No more blocks than leave a thread 40
// registers: a row kernel's thread holds 16 f32 values and their addresses, and at 32 registers
// it spills (tile layernorm, 8 KiB bf16 rows: 0.978 of its twin at six blocks with whole-tile
// bodies, 0.955 at eight; bench/results/2026-12-04-h200-session11.md).
constexpr std::int64_t kRowBytesPerSM = 80 * 1024;
constexpr int kRegistersPerSM = 65536, kRowThreadRegisters = 40;
constexpr int kVectorBytes = 16;  // one ld.global.v4 / st.global.v4
// wgmma plans: what a consumer thread needs besides its accumulators (addresses, loop state,
// the epilogue's indexes), the H200's dynamic shared memory a block, and the swizzle's period.
constexpr int kWgmmaThreadRegisters = 32;
constexpr std::uint64_t kMaxDynamicSharedBytes = 227 * 1024, kSwizzleAtomBytes = 1024;

void problem(TilePlan& plan, const Node& node, std::string message) {
  plan.problems.push_back({Problem::Kind::Lowering, node.expr ? node.expr->getExprLoc() : clang::SourceLocation{},
                           node.expr ? node.expr->getSourceRange() : clang::SourceRange{}, std::move(message)});
}

bool sixteen_bit(const std::string& element) {
  return llvm::StringRef(element).ends_with("carbide::tile::bf16") || llvm::StringRef(element).ends_with("carbide::tile::f16");
}

// The GEMM k-loop: `auto acc = ct::zeros<float, shape<BM, BN>>();` then
// `for (int k : ct::irange(pa.tiles(1))) acc = ct::mma(pa.load(i, k), pb.load(k, j), acc);`, or
// the batched form over rank-3 tensors, one matrix a tile: shapes <1, BM, BK> and <1, BK, BN>,
// `pa.load(z, i, k)`, `pb.load(z, k, j)`, `pa.tiles(2)`.
std::optional<GemmPlan> match_gemm(const TileKernel& kernel) {
  for (std::size_t loop = 1; loop < kernel.body.size(); ++loop) {
    const Statement& statement = kernel.body[loop];
    if (statement.kind != StatementKind::Loop || statement.body.size() != 1) continue;
    const Statement& update = statement.body.front();
    if (update.kind != StatementKind::Assign) continue;
    const Node& mma = kernel.node(update.value);
    if (mma.kind != NodeKind::Mma || mma.operands.size() != 3) continue;
    const Node& a = kernel.node(mma.operands[0]);
    const Node& b = kernel.node(mma.operands[1]);
    const Node& acc = kernel.node(mma.operands[2]);
    if (a.kind != NodeKind::Load || b.kind != NodeKind::Load || acc.kind != NodeKind::Value || acc.name != update.name ||
        !a.type || !b.type || !sixteen_bit(a.type->element))
      continue;
    const std::size_t rank = a.type->extents.size();
    if ((rank != 2 && rank != 3) || b.type->extents.size() != rank || a.index.size() != rank || b.index.size() != rank ||
        a.index[rank - 1] != statement.name || b.index[rank - 2] != statement.name)
      continue;
    if (rank == 3 && (a.type->extents[0] != 1 || b.type->extents[0] != 1 || a.index[0] != b.index[0])) continue;
    std::size_t declared = loop;
    for (std::size_t i = 0; i < loop; ++i)
      if (kernel.body[i].kind == StatementKind::Let && kernel.body[i].name == update.name) declared = i;
    if (declared == loop) continue;
    const Node& init = kernel.node(kernel.body[declared].value);
    if (init.kind != NodeKind::Factory || init.name != "zeros") continue;
    // The trip count must be all of K, as the main loop runs it.
    std::string extents;
    for (std::int64_t extent : a.type->extents) extents += (extents.empty() ? "" : ", ") + std::to_string(extent);
    const std::string all_k = "ctd::tile_count<" + extents + ">(" + a.input + ", " + std::to_string(rank - 1) + ")";
    if (statement.text != all_k) continue;
    GemmPlan gemm;
    gemm.element = a.type->element;
    gemm.block_m = int(a.type->extents[rank - 2]);
    gemm.block_k = int(a.type->extents[rank - 1]);
    gemm.block_n = int(b.type->extents[rank - 1]);
    gemm.a = a.input;
    gemm.b = b.input;
    gemm.row = a.index[rank - 2];
    gemm.column = b.index[rank - 1];
    if (rank == 3) gemm.batch = a.index[0];
    gemm.accumulator = declared;
    gemm.loop = loop;
    // The out the accumulator is stored to: the one whose tile is the accumulator's (another out
    // may hold a reduction of it, as a row maximum beside c).
    for (const auto& [name, type] : kernel.outs)
      if (gemm.output.empty() && type.extents == kernel.node(kernel.body[declared].value).type->extents) gemm.output = name;
    if (gemm.output.empty()) continue;
    return gemm;
  }
  return std::nullopt;
}

// Whether `threads` copy a rows × columns tile of 16-bit elements in 16-byte chunks the way the
// sm80 loader does (tile/copy.hpp's static_asserts): rows of 4 chunks or a multiple of 8, every
// thread one chunk a pass, each pass whole 8-row swizzle periods, the passes the whole tile.
bool stages_evenly(int rows, int columns, int threads) {
  const int chunks = columns * 2 / 16;
  if (!(chunks == 4 || chunks % 8 == 0) || threads % chunks != 0) return false;
  const int rows_per_pass = threads / chunks;
  return rows_per_pass % 8 == 0 && rows % rows_per_pass == 0;
}

// Warp tiles of 64×64 (4 × 8 mma tiles a warp), as the measured anchor; 3 stages of cp.async.
// False for a block tile its loader cannot stage (sides of 64, 128 or 256 (M, N) and 32 or 64 (K),
// every warp copying whole 8-row groups, at most 16 warps): that k-loop runs as mma in a body.
bool plan_mma_sync(TilePlan& plan, GemmPlan gemm) {
  if (gemm.block_m % 64 || gemm.block_n % 64 || (gemm.block_k != 32 && gemm.block_k != 64)) return false;
  gemm.instruction = GemmPlan::Instruction::MmaSync;
  gemm.warps_m = gemm.block_m / 64;
  gemm.warps_n = gemm.block_n / 64;
  gemm.stages = 3;
  const int threads = 32 * gemm.warps_m * gemm.warps_n;
  if (threads > kMaxThreads * 2 || !stages_evenly(gemm.block_m, gemm.block_k, threads) ||
      !stages_evenly(gemm.block_k, gemm.block_n, threads))
    return false;
  plan.threads = threads;
  const std::uint64_t pipeline = std::uint64_t(gemm.stages) * (gemm.block_m + gemm.block_n) * gemm.block_k * 2;
  const std::uint64_t epilogue = std::uint64_t(gemm.block_m) * (gemm.block_n + 8) * sizeof(float);
  plan.dynamic_shared_bytes = std::max(pipeline, epilogue);
  plan.gemm = gemm;
  return true;
}

// The wgmma plan, where its atoms and registers allow it: n128 or n256 atoms, 64 rows a consumer
// warpgroup, k tiles of whole 128-byte swizzle rows. A consumer thread holds BN / 2 f32
// accumulators; with 168 registers a thread (3 warpgroups of 128 on 64K registers) BN = 256 fits
// (bench/experiments/wgmma_tma_gemm.cu: no spills). Stages: as many as the shared memory holds, up to 8.
bool plan_wgmma(TilePlan& plan, GemmPlan gemm) {
  const int consumers = gemm.block_m / 64, threads = 128 * (consumers + 1);
  if (gemm.block_m % 64 || (gemm.block_n != 128 && gemm.block_n != 256) || gemm.block_k % 64 ||
      kRegistersPerSM / threads < gemm.block_n / 2 + kWgmmaThreadRegisters)
    return false;
  const std::uint64_t stage = std::uint64_t(gemm.block_m + gemm.block_n) * gemm.block_k * 2;
  const std::uint64_t fixed = kSwizzleAtomBytes;  // alignment slack; 16 bytes of mbarriers a stage
  const std::uint64_t stages = std::min<std::uint64_t>(8, (kMaxDynamicSharedBytes - fixed) / (stage + 16));
  if (stages < 2) return false;
  gemm.instruction = GemmPlan::Instruction::Wgmma;
  gemm.stages = int(stages);
  plan.threads = threads;
  plan.min_blocks = 1;
  plan.dynamic_shared_bytes = stages * (stage + 16) + fixed;
  plan.gemm = gemm;
  return true;
}

// A block tile wgmma cannot take runs on mma.sync, which sm_90a runs as well; so does a batched
// GEMM, whose operands' tensor maps would need a third axis. False when neither plan takes it.
bool plan_gemm(TilePlan& plan, const GemmPlan& gemm, const TileTarget& target) {
  if (target.wgmma && gemm.batch.empty() && plan_wgmma(plan, gemm)) return true;
  return plan_mma_sync(plan, gemm);
}

// mma in the body (not the GEMM k-loop): the warps that own the results' rows, one warp across so
// that a row stays in one warp, as many as every result's 16-row pieces share (at most 4). What
// the staging through shared memory takes: whole k steps of 16, rows of 32, 64 or a multiple of
// 128 bytes (copy.hpp's swizzled tiles), warp tiles of whole n16 pairs, one matrix a tile.
void plan_mma_body(TilePlan& plan, const TileKernel& kernel) {
  std::vector<std::int64_t> rows;
  for (const Node& node : kernel.nodes) {
    if (node.kind != NodeKind::Mma || node.operands.size() != 3) continue;
    const Node& a = kernel.node(node.operands[0]);
    const Node& b = kernel.node(node.operands[1]);
    if (!a.type || !b.type) continue;
    if (!sixteen_bit(a.type->element)) {
      problem(plan, node, "mma on tensor cores takes ct::bf16 or ct::f16 tiles; cast the operands ('ct::cast<ct::bf16>(t)')");
      continue;
    }
    const std::size_t rank = a.type->extents.size();
    if (rank == 3 && a.type->extents[0] != 1) {
      problem(plan, node, "mma of a batch of " + std::to_string(a.type->extents[0]) + " matrices in one tile is lowered "
                          "for one matrix a tile block; partition the batch axis in tiles of 1");
      continue;
    }
    const std::int64_t m = a.type->extents[rank - 2], k = a.type->extents[rank - 1], n = b.type->extents[rank - 1];
    const auto staged_row = [](std::int64_t elements) { return elements == 16 || elements == 32 || elements % 64 == 0; };
    const bool b_transposed = b.kind == NodeKind::Transpose;
    if (m % 16 || n % 16 || k % 16 || !staged_row(k) || (!b_transposed && !staged_row(n))) {
      problem(plan, node, "mma in a tile kernel's body is lowered for m and n multiples of 16 and k of 16, 32 or a "
                          "multiple of 64" + std::string(b_transposed ? "" : " (n too, for a b read as it lies)") +
                          "; this one is " + std::to_string(m) + "×" + std::to_string(n) + "×" + std::to_string(k));
      continue;
    }
    rows.push_back(m / 16);
  }
  if (rows.empty()) return;
  int warps = 4;
  while (warps > 1 && std::any_of(rows.begin(), rows.end(), [&](std::int64_t pieces) { return pieces % warps != 0; }))
    warps /= 2;
  plan.mma_warps = warps;
  plan.threads = 32 * warps;
}

// Every tile value the layout plan left blocked.
std::vector<const TileType*> blocked_tiles(const TileKernel& kernel, const LayoutPlan& layouts) {
  std::vector<const TileType*> tiles;
  for (std::size_t n = 0; n < kernel.nodes.size(); ++n) {
    const NodeLayout& layout = layouts.nodes[n];
    const auto blocked = [](const std::optional<Layout>& l) { return l && l->kind == Layout::Kind::Blocked; };
    if (kernel.nodes[n].type && (blocked(layout.layout) || blocked(layout.relayout))) tiles.push_back(&*kernel.nodes[n].type);
  }
  return tiles;
}

// The blocked layout: 16-byte chunks of the narrowest element, fewer where a blocked tile's last
// extent needs. Its threads, unless an mma plan fixed them: by the size of the tiles and rows.
void plan_blocked(TilePlan& plan, const TileKernel& kernel) {
  const std::vector<const TileType*> tiles = blocked_tiles(kernel, plan.layouts);
  int narrowest = 8;
  std::int64_t largest = 1;
  for (const Node& node : kernel.nodes) {
    if (!node.type) continue;
    if (node.kind == NodeKind::Load || node.kind == NodeKind::Factory)
      narrowest = std::min(narrowest, std::max(1, node.type->element_bytes));
    largest = std::max(largest, node.type->size());
  }
  for (const auto& [name, type] : kernel.outs) narrowest = std::min(narrowest, std::max(1, type.element_bytes));
  int vector = kVectorBytes / narrowest;
  for (const TileType* tile : tiles)
    while (vector > 1 && tile->last() % vector) vector /= 2;
  for (const auto& [name, type] : kernel.outs)
    while (vector > 1 && type.last() % vector) vector /= 2;
  plan.vector = vector;
  if (plan.threads == 0) {
    // Elementwise kernels: 256 threads measure alike for 1 to 8 chunks a thread
    // (bench/results/2026-12-03-tile-library.md). Row reductions: half a row's chunks, so each
    // thread holds two (one a thread measured 0.71 of the copy rate, two 1.01).
    const std::int64_t chunks = (largest + vector - 1) / vector;
    std::int64_t row_chunks = 0;
    for (const Node& node : kernel.nodes)
      if (node.kind == NodeKind::Reduce && node.operands.size() == 1 && kernel.node(node.operands[0]).type)
        row_chunks = std::max(row_chunks, kernel.node(node.operands[0]).type->last() / vector);
    const std::int64_t wanted = row_chunks > 0 ? row_chunks / 2 : chunks;
    int threads = 32;
    while (threads * 2 <= kMaxThreads && threads * 2 <= wanted) threads *= 2;
    plan.threads = threads;
    if (row_chunks > 0 && threads >= 256) {
      const std::int64_t row_bytes = std::max<std::int64_t>(1, largest * narrowest);
      plan.min_blocks = int(std::clamp<std::int64_t>(kRowBytesPerSM / row_bytes, 1,
                                                     kRegistersPerSM / (threads * kRowThreadRegisters)));
    }
  }
  // The library's row reductions of a blocked tile take a row of a power-of-two number of chunks
  // (shuffles within a group of threads), or of whole multiples of the block.
  for (std::size_t n = 0; n < kernel.nodes.size(); ++n) {
    const Node& node = kernel.nodes[n];
    if (node.kind != NodeKind::Reduce || plan.layouts.nodes[n].across || node.operands.size() != 1) continue;
    const std::optional<Layout>& from = plan.layouts.nodes[std::size_t(node.operands[0])].layout;
    const auto& operand = kernel.node(node.operands[0]).type;
    if (!operand || !from || from->kind != Layout::Kind::Blocked) continue;
    const std::int64_t row = operand->last() / vector;
    const bool power_of_two = row > 0 && (row & (row - 1)) == 0;
    if (!power_of_two && row % plan.threads != 0)
      problem(plan, node, "a reduction over rows of " + std::to_string(operand->last()) +
                              " elements is lowered when a row is a power of two of " + std::to_string(vector) +
                              "-element chunks; pad the tile's last extent to one (the padding is masked)");
  }
}

std::optional<std::int64_t> tile_index(const std::string& text) {
  std::int64_t value = 0;
  if (llvm::StringRef(text).getAsInteger(10, value) || value < 0) return std::nullopt;
  return value;
}

// The whole-launch test of a kernel of the blocked layout, or none when a read's tile depends on
// values only the device knows (a loop counter, a coordinate).
std::optional<WholeLaunch> plan_whole_launch(const TileKernel& kernel) {
  WholeLaunch whole;
  for (const auto& [name, type] : kernel.outs) whole.outputs.emplace_back(name, type.extents);
  for (const Node& node : kernel.nodes) {
    if (node.kind != NodeKind::Load) continue;
    if (!node.type || node.input.empty()) return std::nullopt;  // a load the model reported
    if (!node.like.empty()) {
      whole.like_reads.insert({node.input, node.like});
      continue;
    }
    WholeLaunch::FixedRead read{node.input, {}, node.type->extents};
    for (const std::string& index : node.index) {
      const auto value = tile_index(index);
      if (!value) return std::nullopt;
      read.at.push_back(*value);
    }
    whole.fixed_reads.insert(std::move(read));
  }
  return whole;
}

// The most dynamic shared memory a block may have, by compute capability (the CUDA C++
// Programming Guide's table of features per compute capability); 48 KiB where it is not known.
std::uint64_t max_dynamic_shared(const std::string& arch) {
  const std::string number = llvm::StringRef(arch).drop_front(3).rtrim('a').str();
  if (number == "80" || number == "87") return 166912;
  if (number == "86" || number == "89" || number == "120") return 101376;
  if (number == "90" || number == "100") return 232448;
  return 49152;
}

// The node the most shared bytes are for, where a problem with the total is reported.
const Node* largest_site(const TileKernel& kernel, const TilePlan& plan) {
  for (const Node& node : kernel.nodes)
    if (node.kind == NodeKind::Mma) return &node;
  for (std::size_t n = 0; n < kernel.nodes.size(); ++n)
    if (plan.layouts.nodes[n].across || plan.layouts.nodes[n].relayout) return &kernel.nodes[n];
  return kernel.nodes.empty() ? nullptr : &kernel.nodes.front();
}

}  // namespace

TileTarget tile_target(const std::vector<std::string>& archs) {
  TileTarget target;
  target.max_dynamic_shared = UINT64_MAX;
  target.wgmma = !archs.empty() && std::all_of(archs.begin(), archs.end(), [](const std::string& arch) { return arch == "sm_90a"; });
  for (const std::string& arch : archs.empty() ? std::vector<std::string>{"sm_80", "sm_86", "sm_89", "sm_90"} : archs)
    if (max_dynamic_shared(arch) < target.max_dynamic_shared) {
      target.max_dynamic_shared = max_dynamic_shared(arch);
      target.smallest_arch = arch;
    }
  return target;
}

TilePlan plan_tile_kernel(const TileKernel& kernel, const TileTarget& target) {
  TilePlan plan;
  // A kernel the model found wrong (shapes that disagree, statements it cannot read) is not
  // planned: its own problems say what to fix first, and a plan of wrong shapes would only add noise.
  if (!kernel.problems.empty()) return plan;
  std::string accumulator;
  std::vector<const Statement*> replaced;  // by the GEMM plan's main loop
  // A k-loop whose block tile the pipelined plans cannot stage still runs: as mma in a body.
  if (auto gemm = match_gemm(kernel); gemm && !plan_gemm(plan, *gemm, target)) plan = TilePlan{};
  if (plan.gemm) {
    accumulator = kernel.body[plan.gemm->accumulator].name;
    replaced = {&kernel.body[plan.gemm->accumulator], &kernel.body[plan.gemm->loop]};
    const Node& main = kernel.node(kernel.body[plan.gemm->loop].body.front().value);
    for (const Node& node : kernel.nodes)
      if (node.kind == NodeKind::Mma && &node != &main)
        problem(plan, node, "a kernel with a GEMM k-loop is lowered with that loop's mma alone; compute this "
                            "product in a kernel of its own");
    plan.min_compute = plan.uses_wgmma() ? 90 : 80;
  } else {
    plan_mma_body(plan, kernel);
    if (plan.mma_warps) plan.min_compute = 80;
  }
  if (!plan.problems.empty()) return plan;
  plan.layouts = plan_layouts(kernel, accumulator, replaced);
  plan.problems.insert(plan.problems.end(), plan.layouts.problems.begin(), plan.layouts.problems.end());
  plan_blocked(plan, kernel);
  if (!plan.gemm && !plan.mma_warps) plan.whole_launch = plan_whole_launch(kernel);
  // The exchanges run after the GEMM's main loop, over the same bytes. On Hopper they stay clear
  // of the stages' mbarriers, which follow the stages.
  const std::uint64_t pipeline = plan.dynamic_shared_bytes;
  plan.dynamic_shared_bytes = std::max(pipeline, plan.layouts.scratch_bytes);
  const Node* site = largest_site(kernel, plan);
  if (plan.uses_wgmma() && plan.layouts.scratch_bytes > std::uint64_t(plan.gemm->stages) *
                                                            (plan.gemm->block_m + plan.gemm->block_n) * plan.gemm->block_k * 2 && site)
    problem(plan, *site, "the epilogue exchanges " + std::to_string(plan.layouts.scratch_bytes) +
                             " bytes through shared memory, more than the wgmma plan's stages hold; use a smaller block tile");
  if (plan.dynamic_shared_bytes > target.max_dynamic_shared && site)
    problem(plan, *site, "this tile kernel's lowering needs " + std::to_string(plan.dynamic_shared_bytes) +
                             " bytes of shared memory a block, more than " + target.smallest_arch + " gives (" +
                             std::to_string(target.max_dynamic_shared) + "); use smaller tiles, or translate for "
                             "the architectures that have it (--cuda-arch)");
  return plan;
}

}  // namespace carbide::tile
