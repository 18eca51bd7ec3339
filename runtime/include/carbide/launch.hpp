// Launch geometry and its validation. Validation is a pure function of (contract, config,
// device limits), so every rule it enforces is tested without a GPU.
#pragma once

#include <carbide/errors.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace carbide {

constexpr std::uint64_t div_ceil(std::uint64_t n, std::uint64_t d) { return (n + d - 1) / d; }

using Extent3 = std::array<std::uint64_t, 3>;

// Dimensions are 64-bit so that a grid too large for the device is reported, not truncated.
struct LaunchConfig {
  int domain = 1;
  Extent3 grid{1, 1, 1};
  Extent3 block{1, 1, 1};
  std::uint64_t dynamic_shared_bytes = 0;
};

struct LaunchConfig1D : LaunchConfig {
  LaunchConfig1D(std::uint64_t grid_x, std::uint64_t block_x, std::uint64_t shared_bytes = 0)
      : LaunchConfig{1, {grid_x, 1, 1}, {block_x, 1, 1}, shared_bytes} {}
};

struct LaunchConfig2D : LaunchConfig {
  LaunchConfig2D(Extent3 grid_xy, Extent3 block_xy, std::uint64_t shared_bytes = 0)
      : LaunchConfig{2, grid_xy, block_xy, shared_bytes} {}
};

struct LaunchConfig3D : LaunchConfig {
  LaunchConfig3D(Extent3 grid_xyz, Extent3 block_xyz, std::uint64_t shared_bytes = 0)
      : LaunchConfig{3, grid_xyz, block_xyz, shared_bytes} {}
};

// What the translator read from CARBIDE_LAUNCH_CONTRACT and CARBIDE_LAUNCH_BOUNDS.
struct LaunchContract {
  std::string kernel;
  int domain = 1;
  Extent3 block{1, 1, 1};
  std::uint64_t dynamic_shared_bytes = 0;
  int min_compute = 0;                  // major * 10 + minor; 0 = any
  std::uint64_t max_threads_per_block = 0;  // from CARBIDE_LAUNCH_BOUNDS; 0 = none
  // 32: the kernel computes its indexes in 32 bits, so grid × block along x and y (either
  // pairing, for the transposed witness) must be at most 2^32; 64 (the default): no limit.
  int index_bits = 64;
};

struct DeviceLimits {
  std::string name;
  int compute_capability = 0;  // major * 10 + minor
  std::uint64_t max_threads_per_block = 0;
  Extent3 max_block{0, 0, 0};
  Extent3 max_grid{0, 0, 0};
  std::uint64_t max_shared_per_block = 0;        // without opting in
  std::uint64_t max_shared_per_block_optin = 0;  // the most a kernel may opt in to
};

// A kernel's static footprint, read from the loaded module.
struct KernelFootprint {
  std::uint64_t static_shared_bytes = 0;
  std::uint64_t max_threads_per_block = 0;  // what the compiled code allows; 0 = unknown
};

// Throws LaunchContractError naming the first field that does not fit.
void validate_launch(const LaunchContract& contract, const LaunchConfig& config,
                     const DeviceLimits& device, const KernelFootprint& footprint);

// For kernels without a contract: only the device's own limits apply.
void validate_device_limits(const std::string& kernel, const LaunchConfig& config,
                            const DeviceLimits& device, const KernelFootprint& footprint);

// A 2-D output a kernel claims with thread::index_2d_transposed(): block (x, y) owns the tile at
// row x, column y of the output's tiles, each (piece_rows · block.y) × (piece_cols · block.x)
// elements. Every element has exactly one owner only when the grid is that tile grid
// transposed, (tile rows, tile columns, 1): a grid.y past the tile columns would claim tiles
// past the edge, a short one would leave tiles unwritten, a grid.z of 2 would write each twice.
struct TransposedOutput {
  const char* param;
  std::uint64_t rows, cols;              // the output's extent, in elements
  std::uint64_t piece_rows, piece_cols;  // one thread's piece: 1 × 1 for get_mut
};

// A view of a kernel whose contract asks for `index_bits = 32`: every index into it is computed in
// 32 bits, so its extent in elements (rows × pitch for a 2-D view) must be below 2^32.
// Throws LaunchContractError naming the parameter.
void validate_index_extent(const std::string& kernel, const char* param, std::uint64_t elements);

// The view a contract's `covers = x` names: the grid's threads must be exactly its elements
// (grid.x × block.x == size, grid.y == grid.z == 1), so that every index_1d() witness lies inside
// it. Throws LaunchContractError naming the grid and the parameter.
void validate_exact_cover(const std::string& kernel, const char* param, std::uint64_t elements,
                          const LaunchConfig& config);

// A view on whose chunks of K elements the kernel calls store_whole, which stores all K without
// a partial-chunk path: its length must be a multiple of K. Throws LaunchContractError naming
// the parameter.
void validate_whole_chunks(const std::string& kernel, const char* param, std::uint64_t elements,
                           std::uint64_t chunk);

// Throws LaunchContractError naming the parameter, the grid it needs and the grid given.
void validate_transposed_output(const std::string& kernel, const TransposedOutput& output,
                                const LaunchConfig& config);

}  // namespace carbide
