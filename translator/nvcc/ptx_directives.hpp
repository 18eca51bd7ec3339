// Turns the `.maxntid` that __launch_bounds__ puts on an entry into the contract's exact
// `.reqntid`, so the driver itself refuses a launch with any other block shape.
//
// nvcc's own way, __block_size__, also marks the entry `.blocksareclusters`: every block then
// launches as a one-block cluster, which measured 2.8x slower than a plain launch for a
// 262,144-block vecadd on an H200 (bench/results/2026-12-02-h200-bench.md).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>

namespace carbide::nvcc {

using ExactBlocks = std::map<std::string, std::array<std::uint64_t, 3>>;  // entry -> (x, y, z)

// The PTX with each named entry's `.maxntid` replaced; "" in `missing` for entries found, else
// the first entry that has no `.maxntid` to replace.
std::string require_exact_blocks(const std::string& ptx, const ExactBlocks& blocks,
                                 std::string& missing);

}  // namespace carbide::nvcc
