// The planner: how a tile kernel runs. It chooses the threads of a tile block, the register
// layout its tiles live in, and for the k-loop of `mma`s the GEMM plan (block tile, warps,
// pipeline stages, shared memory); what it cannot lower yet it reports instead of guessing.
// docs/tile-lowering.md describes the layouts.
#pragma once

#include "tile/tile_model.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace carbide::tile {

// A recognised `acc = mma(pa.load(i, k), pb.load(k, j), acc)` loop over all of K.
struct GemmPlan {
  std::string element;  // of a and b: "::carbide::tile::bf16"
  int block_m = 0, block_n = 0, block_k = 0;
  int warps_m = 0, warps_n = 0, stages = 0;
  std::string a, b;           // the ct::in parameters
  std::string output;         // the ct::out the accumulator is stored to
  std::string row, column;    // the tile coordinates the loads use, as C++ text
  std::size_t accumulator = 0;  // the statement that declares the accumulator
  std::size_t loop = 0;         // the k-loop statement it replaces
};

struct TilePlan {
  int threads = 0;
  int vector = 1;  // elements per chunk of the blocked layout
  int min_blocks = 0;  // __launch_bounds__'s second argument; 0 for none
  std::optional<GemmPlan> gemm;
  std::uint64_t dynamic_shared_bytes = 0;  // the GEMM's pipeline stages (the emitter asserts it)
  std::vector<Problem> problems;  // what the lowering cannot express yet
};

TilePlan plan_tile_kernel(const TileKernel& kernel);

}  // namespace carbide::tile
