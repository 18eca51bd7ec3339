#include <carbide/launch.hpp>

namespace carbide {
namespace {

constexpr const char* kAxis[] = {"x", "y", "z"};

std::string extent_text(const Extent3& e) {
  return "(" + std::to_string(e[0]) + ", " + std::to_string(e[1]) + ", " + std::to_string(e[2]) +
         ")";
}

std::string compute_text(int cc) { return "sm_" + std::to_string(cc); }

[[noreturn]] void reject(const std::string& kernel, const std::string& field,
                         const std::string& expected, const std::string& got) {
  throw LaunchContractError(kernel, field, expected, got);
}

std::uint64_t volume(const Extent3& e) { return e[0] * e[1] * e[2]; }

constexpr std::uint64_t kIndex32Threads = std::uint64_t(1) << 32;

}  // namespace

void validate_device_limits(const std::string& kernel, const LaunchConfig& config,
                            const DeviceLimits& device, const KernelFootprint& footprint) {
  for (int axis = 0; axis < 3; ++axis) {
    const std::string name = kAxis[axis];
    if (config.grid[axis] == 0) reject(kernel, "grid." + name, ">= 1", "0");
    if (config.block[axis] == 0) reject(kernel, "block." + name, ">= 1", "0");
    if (config.grid[axis] > device.max_grid[axis])
      reject(kernel, "grid." + name, "<= " + std::to_string(device.max_grid[axis]) + " on " +
                                          device.name,
             std::to_string(config.grid[axis]));
    if (config.block[axis] > device.max_block[axis])
      reject(kernel, "block." + name,
             "<= " + std::to_string(device.max_block[axis]) + " on " + device.name,
             std::to_string(config.block[axis]));
  }
  const std::uint64_t threads = volume(config.block);
  if (threads > device.max_threads_per_block)
    reject(kernel, "block", "at most " + std::to_string(device.max_threads_per_block) +
                                " threads on " + device.name,
           std::to_string(threads) + " threads " + extent_text(config.block));
  if (footprint.max_threads_per_block != 0 && threads > footprint.max_threads_per_block)
    reject(kernel, "block",
           "at most " + std::to_string(footprint.max_threads_per_block) +
               " threads (the compiled kernel's limit)",
           std::to_string(threads) + " threads " + extent_text(config.block));
  // Compared without adding: a dynamic size near 2^64 would wrap the sum below the limit.
  const std::uint64_t limit = device.max_shared_per_block_optin;
  if (footprint.static_shared_bytes > limit ||
      config.dynamic_shared_bytes > limit - footprint.static_shared_bytes)
    reject(kernel, "dynamic_shared",
           "static + dynamic <= " + std::to_string(device.max_shared_per_block_optin) +
               " bytes on " + device.name,
           std::to_string(footprint.static_shared_bytes) + " + " +
               std::to_string(config.dynamic_shared_bytes) + " bytes");
}

void validate_launch(const LaunchContract& contract, const LaunchConfig& config,
                     const DeviceLimits& device, const KernelFootprint& footprint) {
  const std::string& kernel = contract.kernel;
  if (config.domain != contract.domain)
    reject(kernel, "domain", std::to_string(contract.domain),
           std::to_string(config.domain) + " (a LaunchConfig" + std::to_string(config.domain) +
               "D)");
  for (int axis = 0; axis < 3; ++axis) {
    if (config.block[axis] != contract.block[axis])
      reject(kernel, std::string("block.") + kAxis[axis], std::to_string(contract.block[axis]),
             std::to_string(config.block[axis]));
  }
  // thread::index_1d() reads blockIdx.x and index_2d() blockIdx.x and .y only: blocks that differ
  // on an axis past the domain would get the same index and write the same elements.
  for (int axis = contract.domain; axis < 3; ++axis) {
    if (config.grid[axis] != 1)
      reject(kernel, std::string("grid.") + kAxis[axis],
             "1 (a domain-" + std::to_string(contract.domain) +
                 " kernel's indexes do not read blockIdx." + kAxis[axis] +
                 ", so a second block along it would write the same elements)",
             std::to_string(config.grid[axis]));
  }
  if (config.dynamic_shared_bytes != contract.dynamic_shared_bytes)
    reject(kernel, "dynamic_shared", std::to_string(contract.dynamic_shared_bytes) + " bytes",
           std::to_string(config.dynamic_shared_bytes) + " bytes");
  if (contract.min_compute != 0 && device.compute_capability < contract.min_compute)
    reject(kernel, "min_compute", compute_text(contract.min_compute) + " or newer",
           compute_text(device.compute_capability) + " (" + device.name + ")");
  if (contract.max_threads_per_block != 0 && volume(config.block) > contract.max_threads_per_block)
    reject(kernel, "block",
           "at most " + std::to_string(contract.max_threads_per_block) +
               " threads (CARBIDE_LAUNCH_BOUNDS)",
           std::to_string(volume(config.block)) + " threads");
  validate_device_limits(kernel, config, device, footprint);
  // After the device's limits, which keep every product below 2^64.
  if (contract.index_bits == 32)
    for (int grid_axis = 0; grid_axis < 2; ++grid_axis)
      for (int block_axis = 0; block_axis < 2; ++block_axis)
        if (config.grid[grid_axis] * config.block[block_axis] > kIndex32Threads)
          reject(kernel, std::string("grid.") + kAxis[grid_axis],
                 "at most 2^32 threads along it with index_bits = 32 (grid." +
                     std::string(kAxis[grid_axis]) + " x block." + kAxis[block_axis] + ")",
                 std::to_string(config.grid[grid_axis]) + " x " + std::to_string(config.block[block_axis]));
}

void validate_index_extent(const std::string& kernel, const char* param, std::uint64_t elements) {
  if (elements < kIndex32Threads) return;
  reject(kernel, std::string("'") + param + "'",
         "fewer than 2^32 elements (the contract says index_bits = 32)", std::to_string(elements) + " elements");
}

void validate_exact_cover(const std::string& kernel, const char* param, std::uint64_t elements,
                          const LaunchConfig& config) {
  const std::uint64_t threads = config.grid[0] * config.block[0];
  if (config.grid[1] == 1 && config.grid[2] == 1 && config.block[0] != 0 && threads / config.block[0] == config.grid[0] &&
      threads == elements)
    return;
  reject(kernel, "grid",
         "one thread for each of the " + std::to_string(elements) + " elements of '" + param +
             "' (the contract says covers = " + param + "): grid.x x block.x == " + std::to_string(elements) +
             ", grid.y == grid.z == 1",
         extent_text(config.grid) + " blocks of " + std::to_string(config.block[0]));
}

void validate_whole_chunks(const std::string& kernel, const char* param, std::uint64_t elements,
                           std::uint64_t chunk) {
  if (chunk == 0 || elements % chunk == 0) return;
  reject(kernel, std::string("'") + param + "'",
         "a multiple of " + std::to_string(chunk) + " elements (the kernel stores whole chunks of " +
             std::to_string(chunk) + " with store_whole)",
         std::to_string(elements) + " elements");
}

void validate_transposed_output(const std::string& kernel, const TransposedOutput& output,
                                const LaunchConfig& config) {
  const std::uint64_t tile_rows = output.piece_rows * config.block[1];
  const std::uint64_t tile_cols = output.piece_cols * config.block[0];
  if (tile_rows == 0 || tile_cols == 0) return;  // a piece of no elements claims nothing
  const Extent3 needed{div_ceil(output.rows, tile_rows), div_ceil(output.cols, tile_cols), 1};
  if (config.grid == needed) return;
  const std::string param = std::string("'") + output.param + "'";
  reject(kernel, "grid",
         extent_text(needed) + ", the tile grid of " + param + " transposed: " + param + " is " +
             std::to_string(output.rows) + " x " + std::to_string(output.cols) + " elements, " +
             std::to_string(needed[0]) + " x " + std::to_string(needed[1]) + " tiles of " +
             std::to_string(tile_rows) + " x " + std::to_string(tile_cols) +
             ", and thread::index_2d_transposed() gives block (x, y) its tile (x, y), so grid.x "
             "counts its tile rows and grid.y its tile columns",
         extent_text(config.grid));
}

}  // namespace carbide
