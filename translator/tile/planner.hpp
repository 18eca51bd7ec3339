// The planner: how a tile kernel runs. It chooses the threads of a tile block, the register
// layout its tiles live in, and for the k-loop of `mma`s the GEMM plan (block tile, warps,
// pipeline stages, shared memory); what it cannot lower yet it reports instead of guessing.
// docs/tile-lowering.md describes the layouts.
#pragma once

#include "tile/layout_plan.hpp"
#include "tile/tile_model.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace carbide::tile {

// What the translation's device code runs on, as far as the planner's choices depend on it.
struct TileTarget {
  bool wgmma = false;  // every architecture is sm_90a: wgmma, TMA and mbarriers may be used
  // The dynamic shared memory a block may have on every architecture of the translation, and the
  // architecture that allows the least (by default, of the default set sm_80, sm_86, sm_89, sm_90).
  std::uint64_t max_dynamic_shared = 101376;
  std::string smallest_arch = "sm_86";
};
// The target of a translation for these architectures (--cuda-arch values, "sm_90a").
TileTarget tile_target(const std::vector<std::string>& archs);

// A recognised `acc = mma(pa.load(i, k), pb.load(k, j), acc)` loop over all of K.
struct GemmPlan {
  enum class Instruction {
    MmaSync,  // sm_80 and up: mma.sync m16n8k16, ldmatrix, cp.async stages (tile/gemm_sm80.hpp)
    Wgmma,    // sm_90a: wgmma fed by TMA, a producer warpgroup and BM / 64 consumers (tile/gemm_sm90.hpp)
  };
  Instruction instruction = Instruction::MmaSync;
  std::string element;  // of a and b: "::carbide::tile::bf16"
  int block_m = 0, block_n = 0, block_k = 0;
  int warps_m = 0, warps_n = 0;  // mma.sync: the warp grid
  int stages = 0;
  std::string a, b;           // the ct::in parameters
  std::string output;         // the ct::out the accumulator is stored to
  std::string row, column;    // the tile coordinates the loads use, as C++ text
  std::string batch;          // a batched GEMM (rank 3, one matrix a tile): the matrix's coordinate; else empty
  std::size_t accumulator = 0;  // the statement that declares the accumulator
  std::size_t loop = 0;         // the k-loop statement it replaces
};

// The launch-time test under which a kernel runs an entry without edge paths: every output
// whole (its extents multiples of its tile's), aligned, and tiled along its first axis only (the
// block's coordinates are then {blockIdx.x, 0, ...}); every input tile it reads whole and
// aligned. The stub evaluates it and picks the entry (docs/tile-lowering.md, "Whole launches").
// Only kernels whose reads the host can place qualify: load_like, and loads at constant indexes.
struct WholeLaunch {
  struct LikeRead {
    std::string input, output;  // load_like(input, output): a tile of output's shape at its coordinates
    auto operator<=>(const LikeRead&) const = default;
  };
  struct FixedRead {
    std::string input;
    std::vector<std::int64_t> at, shape;  // the tile index and the tile's shape
    auto operator<=>(const FixedRead&) const = default;
  };
  std::vector<std::pair<std::string, std::vector<std::int64_t>>> outputs;  // each ct::out and its tile shape
  std::set<LikeRead> like_reads;  // each once, however often the kernel reads it
  std::set<FixedRead> fixed_reads;
};

// The entry a whole launch runs: the kernel's entry and "__whole". Names with "__" are reserved
// in C++, so no user kernel's entry is one.
inline std::string whole_entry_name(const std::string& entry_name) { return entry_name + "__whole"; }

// The entry parameter that carries a wgmma plan operand's TMA tensor map, after the kernel's own
// parameters (a's, then b's). Reserved in C++ like whole_entry_name's suffix.
inline std::string tensor_map_parameter(const std::string& operand) { return operand + "__tensor_map"; }

struct TilePlan {
  int threads = 0;
  int vector = 1;  // elements per chunk of the blocked layout
  int min_blocks = 0;  // __launch_bounds__'s second argument; 0 for none
  std::optional<GemmPlan> gemm;
  int mma_warps = 0;  // mma in the body: its results are ctd::mma_c<mma_warps, 1>; 0 without
  LayoutPlan layouts;  // every tile value's layout, and the exchanges through shared memory
  std::optional<WholeLaunch> whole_launch;  // none: every launch runs the entry with edge paths
  // The GEMM's pipeline stages or the exchanges' bytes, whichever is more (they run one after the
  // other over the same bytes; the emitter asserts the GEMM's).
  std::uint64_t dynamic_shared_bytes = 0;
  int min_compute = 0;  // the compute capability the entry needs: 80 for mma.sync, 90 for wgmma
  std::vector<Problem> problems;  // what the lowering cannot take, for the target

  bool uses_wgmma() const { return gemm && gemm->instruction == GemmPlan::Instruction::Wgmma; }
};

TilePlan plan_tile_kernel(const TileKernel& kernel, const TileTarget& target);

}  // namespace carbide::tile
