// Contract validation is pure, so every rule it enforces is checked here without a GPU, against
// the limits of real devices.
#include <carbide/launch.hpp>

#include <gtest/gtest.h>

namespace carbide {
namespace {

DeviceLimits h200() {
  DeviceLimits limits;
  limits.name = "NVIDIA H200";
  limits.compute_capability = 90;
  limits.max_threads_per_block = 1024;
  limits.max_block = {1024, 1024, 64};
  limits.max_grid = {2147483647, 65535, 65535};
  limits.max_shared_per_block = 48 * 1024;
  limits.max_shared_per_block_optin = 227 * 1024;
  return limits;
}

DeviceLimits turing() {
  DeviceLimits limits = h200();
  limits.name = "Tesla T4";
  limits.compute_capability = 75;
  limits.max_shared_per_block_optin = 64 * 1024;
  return limits;
}

LaunchContract vecadd_contract() {
  LaunchContract contract;
  contract.kernel = "kernels::vecadd";
  contract.domain = 1;
  contract.block = {256, 1, 1};
  contract.max_threads_per_block = 256;
  return contract;
}

// The field the validation rejected, or "" when it accepted the launch.
std::string rejected_field(const LaunchContract& contract, const LaunchConfig& config,
                           const DeviceLimits& device = h200(), KernelFootprint footprint = {}) {
  try {
    validate_launch(contract, config, device, footprint);
  } catch (const LaunchContractError& error) {
    return error.field();
  }
  return "";
}

TEST(LaunchValidation, AcceptsTheContractExactly) {
  EXPECT_EQ(rejected_field(vecadd_contract(), LaunchConfig1D(4, 256)), "");
  EXPECT_EQ(rejected_field(vecadd_contract(), LaunchConfig1D(div_ceil(1 << 20, 256), 256, 0)), "");
}

TEST(LaunchValidation, RejectsEachBlockAxisThatDiffers) {
  EXPECT_EQ(rejected_field(vecadd_contract(), LaunchConfig1D(4, 128)), "block.x");
  EXPECT_EQ(rejected_field(vecadd_contract(), LaunchConfig1D(4, 512)), "block.x");
  LaunchContract contract = vecadd_contract();
  contract.domain = 2;
  contract.block = {16, 16, 1};
  EXPECT_EQ(rejected_field(contract, LaunchConfig2D({8, 8, 1}, {16, 8, 1})), "block.y");
  contract.domain = 3;
  contract.block = {8, 8, 4};
  EXPECT_EQ(rejected_field(contract, LaunchConfig3D({1, 1, 1}, {8, 8, 2})), "block.z");
  EXPECT_EQ(rejected_field(contract, LaunchConfig3D({1, 1, 1}, {8, 8, 4})), "");
}

TEST(LaunchValidation, RejectsAConfigOfAnotherDomain) {
  EXPECT_EQ(rejected_field(vecadd_contract(), LaunchConfig2D({4, 1, 1}, {256, 1, 1})), "domain");
}

// index_1d() and index_2d() do not read the grid axes past their domain, so a second block
// along one would repeat every index: two writers per element.
TEST(LaunchValidation, RejectsGridAxesPastTheDomain) {
  LaunchConfig one_d = LaunchConfig1D(4, 256);
  one_d.grid = {4, 2, 1};
  EXPECT_EQ(rejected_field(vecadd_contract(), one_d), "grid.y");
  one_d.grid = {4, 1, 3};
  EXPECT_EQ(rejected_field(vecadd_contract(), one_d), "grid.z");
  LaunchContract contract = vecadd_contract();
  contract.domain = 2;
  contract.block = {16, 16, 1};
  EXPECT_EQ(rejected_field(contract, LaunchConfig2D({8, 8, 2}, {16, 16, 1})), "grid.z");
  EXPECT_EQ(rejected_field(contract, LaunchConfig2D({8, 8, 1}, {16, 16, 1})), "");
  contract.domain = 3;
  contract.block = {8, 8, 4};
  EXPECT_EQ(rejected_field(contract, LaunchConfig3D({2, 3, 4}, {8, 8, 4})), "");
}

TEST(LaunchValidation, DynamicSharedMemoryMustMatchTheContract) {
  EXPECT_EQ(rejected_field(vecadd_contract(), LaunchConfig1D(4, 256, 1024)), "dynamic_shared");
  LaunchContract contract = vecadd_contract();
  contract.dynamic_shared_bytes = 1024;
  EXPECT_EQ(rejected_field(contract, LaunchConfig1D(4, 256, 0)), "dynamic_shared");
  EXPECT_EQ(rejected_field(contract, LaunchConfig1D(4, 256, 1024)), "");
}

TEST(LaunchValidation, SharedMemoryBeyondTheDeviceIsRejected) {
  LaunchContract contract = vecadd_contract();
  contract.dynamic_shared_bytes = 100 * 1024;
  EXPECT_EQ(rejected_field(contract, LaunchConfig1D(4, 256, 100 * 1024)), "");
  EXPECT_EQ(rejected_field(contract, LaunchConfig1D(4, 256, 100 * 1024), turing()),
            "dynamic_shared");
  KernelFootprint footprint;
  footprint.static_shared_bytes = 130 * 1024;
  EXPECT_EQ(rejected_field(contract, LaunchConfig1D(4, 256, 100 * 1024), h200(), footprint),
            "dynamic_shared");
}

TEST(LaunchValidation, SharedMemorySizesThatWrapAreRejected) {
  // 2^64 - 1024 + 2048 static would wrap to 1024 if the check added the two.
  const std::uint64_t huge = ~std::uint64_t(0) - 1023;
  LaunchContract contract = vecadd_contract();
  contract.dynamic_shared_bytes = huge;
  KernelFootprint footprint;
  footprint.static_shared_bytes = 2048;
  EXPECT_EQ(rejected_field(contract, LaunchConfig1D(4, 256, huge), h200(), footprint),
            "dynamic_shared");
  // The launch of a kernel without a contract checks the device's limits alone.
  EXPECT_THROW(validate_device_limits("k", LaunchConfig1D(4, 256, huge), h200(), footprint),
               LaunchContractError);
}

TEST(LaunchValidation, MinimumComputeCapability) {
  LaunchContract contract = vecadd_contract();
  contract.min_compute = 80;
  EXPECT_EQ(rejected_field(contract, LaunchConfig1D(4, 256)), "");
  EXPECT_EQ(rejected_field(contract, LaunchConfig1D(4, 256), turing()), "min_compute");
  contract.min_compute = 90;
  EXPECT_EQ(rejected_field(contract, LaunchConfig1D(4, 256)), "");
}

TEST(LaunchValidation, GridLimitsOfTheDevice) {
  EXPECT_EQ(rejected_field(vecadd_contract(), LaunchConfig1D(0, 256)), "grid.x");
  EXPECT_EQ(rejected_field(vecadd_contract(), LaunchConfig1D(2147483647, 256)), "");
  EXPECT_EQ(rejected_field(vecadd_contract(), LaunchConfig1D(2147483648ull, 256)), "grid.x");
  LaunchContract contract = vecadd_contract();
  contract.domain = 2;
  contract.block = {16, 16, 1};
  contract.max_threads_per_block = 0;
  EXPECT_EQ(rejected_field(contract, LaunchConfig2D({1, 65536, 1}, {16, 16, 1})), "grid.y");
  EXPECT_EQ(rejected_field(contract, LaunchConfig2D({1, 65535, 1}, {16, 16, 1})), "");
}

TEST(LaunchValidation, BlockLargerThanLaunchBounds) {
  LaunchContract contract = vecadd_contract();
  contract.block = {512, 1, 1};
  EXPECT_EQ(rejected_field(contract, LaunchConfig1D(1, 512)), "block");
}

TEST(LaunchValidation, BlockLargerThanTheCompiledKernelAllows) {
  LaunchContract contract = vecadd_contract();
  contract.max_threads_per_block = 0;
  contract.block = {1024, 1, 1};
  KernelFootprint footprint;
  footprint.max_threads_per_block = 512;  // e.g. register pressure
  EXPECT_EQ(rejected_field(contract, LaunchConfig1D(1, 1024), h200(), footprint), "block");
}

TEST(LaunchValidation, ErrorNamesKernelFieldExpectedAndGot) {
  try {
    validate_launch(vecadd_contract(), LaunchConfig1D(4, 128), h200(), {});
    FAIL() << "a block of 128 was accepted for a 256-thread contract";
  } catch (const LaunchContractError& error) {
    EXPECT_EQ(error.kernel(), "kernels::vecadd");
    EXPECT_EQ(error.field(), "block.x");
    EXPECT_EQ(error.expected(), "256");
    EXPECT_EQ(error.got(), "128");
    EXPECT_STREQ(error.what(),
                 "launch of kernels::vecadd rejected: block.x must be 256, got 128");
  }
}

TEST(DeviceLimitValidation, ChecksOnlyTheDevice) {
  const LaunchConfig1D config(4, 1024);
  EXPECT_NO_THROW(validate_device_limits("k", config, h200(), {}));
  EXPECT_THROW(validate_device_limits("k", LaunchConfig1D(4, 1025), h200(), {}),
               LaunchContractError);
  EXPECT_THROW(validate_device_limits("k", LaunchConfig3D({1, 1, 1}, {1, 1, 65}), h200(), {}),
               LaunchContractError);
}

// A transpose's output, 8209 x 8187 floats (the sample's input is 8187 x 8209), claimed at
// transposed block coordinates in 8 x 1 pieces by 32 x 4 blocks: tiles of 32 x 32, the last row
// and column of tiles partial.
const TransposedOutput kTransposed{"out", 8209, 8187, 8, 1};
const std::string kTransposedKernel = "transpose::transpose";

std::string transposed_rejection(const LaunchConfig& config) {
  try {
    validate_transposed_output(kTransposedKernel, kTransposed, config);
  } catch (const LaunchContractError& error) {
    return error.what();
  }
  return "";
}

TEST(TransposedOutput, AcceptsTheOutputsTileGridTransposed) {
  // 257 tile rows (8209 = 256·32 + 17) along grid.x, 256 tile columns (8187 = 255·32 + 27) along y.
  EXPECT_EQ(transposed_rejection(LaunchConfig2D({257, 256, 1}, {32, 4, 1})), "");
}

TEST(TransposedOutput, RejectsAnyOtherGrid) {
  const std::string as_launched = transposed_rejection(LaunchConfig2D({256, 257, 1}, {32, 4, 1}));
  EXPECT_EQ(as_launched,
            "launch of transpose::transpose rejected: grid must be (257, 256, 1), the tile grid of "
            "'out' transposed: 'out' is 8209 x 8187 elements, 257 x 256 tiles of 32 x 32, and "
            "thread::index_2d_transposed() gives block (x, y) its tile (x, y), so grid.x counts its "
            "tile rows and grid.y its tile columns, got (256, 257, 1)");
  // Too many blocks would also be a grid the check cannot pair with tiles one to one; too few
  // leave tiles unwritten; a second layer along z would write every tile twice.
  EXPECT_NE(transposed_rejection(LaunchConfig2D({258, 256, 1}, {32, 4, 1})), "");
  EXPECT_NE(transposed_rejection(LaunchConfig2D({257, 255, 1}, {32, 4, 1})), "");
  EXPECT_NE(transposed_rejection(LaunchConfig2D({257, 256, 2}, {32, 4, 1})), "");
}

TEST(TransposedOutput, TilesFollowTheBlockAndThePiece) {
  // The same output in 1 x 1 pieces of 16 x 16 blocks: tiles of 16 x 16.
  const TransposedOutput single{"out", 8209, 8187, 1, 1};
  EXPECT_NO_THROW(validate_transposed_output(kTransposedKernel, single, LaunchConfig2D({514, 512, 1}, {16, 16, 1})));
  EXPECT_THROW(validate_transposed_output(kTransposedKernel, single, LaunchConfig2D({257, 256, 1}, {16, 16, 1})),
               LaunchContractError);
  // Rows of a tile come from block.y, columns from block.x: 2 x 3 pieces in blocks of (8, 4, 1)
  // threads make tiles of 8 x 24.
  const TransposedOutput wide{"out", 17, 50, 2, 3};
  EXPECT_NO_THROW(validate_transposed_output(kTransposedKernel, wide, LaunchConfig2D({3, 3, 1}, {8, 4, 1})));
}

TEST(DivCeil, RoundsUp) {
  EXPECT_EQ(div_ceil(1024, 256), 4u);
  EXPECT_EQ(div_ceil(1025, 256), 5u);
  EXPECT_EQ(div_ceil(1, 256), 1u);
  EXPECT_EQ(div_ceil(0, 256), 0u);
}


// index_bits = 32: every global index is computed in 32 bits, so no axis may hold more than 2^32
// threads, in either pairing of grid and block (index_2d_transposed() pairs grid.x with block.y).
TEST(IndexBits32, AcceptsGridsOfAtMost2To32ThreadsPerAxis) {
  LaunchContract contract = vecadd_contract();
  contract.index_bits = 32;
  EXPECT_EQ(rejected_field(contract, LaunchConfig1D(16777216, 256)), "");  // exactly 2^32 threads
  EXPECT_EQ(rejected_field(contract, LaunchConfig1D(16777217, 256)), "grid.x");
  // The default (64) keeps every grid the device takes.
  EXPECT_EQ(rejected_field(vecadd_contract(), LaunchConfig1D(16777217, 256)), "");
}

TEST(IndexBits32, PairsEachGridAxisWithEachBlockAxis) {
  LaunchContract contract;
  contract.kernel = "kernels::transpose";
  contract.domain = 2;
  contract.block = {32, 8, 1};
  contract.index_bits = 32;
  // 2^27 · 32 = 2^32 along x; grid.y at the device's 65535 stays far below.
  EXPECT_EQ(rejected_field(contract, LaunchConfig2D({134217728, 65535, 1}, {32, 8, 1})), "");
  EXPECT_EQ(rejected_field(contract, LaunchConfig2D({134217729, 1, 1}, {32, 8, 1})), "grid.x");
  contract.block = {8, 32, 1};
  // grid.x · block.y: the transposed witness's row.
  EXPECT_EQ(rejected_field(contract, LaunchConfig2D({134217729, 1, 1}, {8, 32, 1})), "grid.x");
}

TEST(IndexBits32, ViewsMustHoldFewerThan2To32Elements) {
  EXPECT_NO_THROW(validate_index_extent("kernels::vecadd", "x", 4294967295ull));
  try {
    validate_index_extent("kernels::vecadd", "x", 4294967296ull);
    ADD_FAILURE() << "a view of 2^32 elements was accepted";
  } catch (const LaunchContractError& error) {
    EXPECT_EQ(std::string(error.what()),
              "launch of kernels::vecadd rejected: 'x' must be fewer than 2^32 elements (the contract says "
              "index_bits = 32), got 4294967296 elements");
  }
}

TEST(ExactCover, TheGridsThreadsMustEqualTheViewsElements) {
  EXPECT_NO_THROW(validate_exact_cover("kernels::vecadd", "a", 1 << 20, LaunchConfig1D(4096, 256)));
  EXPECT_THROW(validate_exact_cover("kernels::vecadd", "a", (1 << 20) + 1, LaunchConfig1D(4097, 256)),
               LaunchContractError);
  EXPECT_THROW(validate_exact_cover("kernels::vecadd", "a", 1 << 20, LaunchConfig1D(4095, 256)), LaunchContractError);
  // A second layer of blocks would index past the view.
  LaunchConfig layered = LaunchConfig1D(4096, 256);
  layered.grid[1] = 2;
  EXPECT_THROW(validate_exact_cover("kernels::vecadd", "a", 1 << 20, layered), LaunchContractError);
  try {
    validate_exact_cover("kernels::vecadd", "a", 1000, LaunchConfig1D(4, 256));
  } catch (const LaunchContractError& error) {
    EXPECT_EQ(std::string(error.what()),
              "launch of kernels::vecadd rejected: grid must be one thread for each of the 1000 elements of 'a' "
              "(the contract says covers = a): grid.x x block.x == 1000, grid.y == grid.z == 1, got (4, 1, 1) "
              "blocks of 256");
  }
}

TEST(WholeChunks, ViewsMustBeAMultipleOfTheChunk) {
  EXPECT_NO_THROW(validate_whole_chunks("kernels::saxpy", "out", 1024, 4));
  EXPECT_NO_THROW(validate_whole_chunks("kernels::saxpy", "out", 0, 4));
  try {
    validate_whole_chunks("kernels::saxpy", "out", 1026, 4);
    ADD_FAILURE() << "a view of 1026 elements was accepted for chunks of 4";
  } catch (const LaunchContractError& error) {
    EXPECT_EQ(error.field(), "'out'");
    EXPECT_EQ(std::string(error.what()),
              "launch of kernels::saxpy rejected: 'out' must be a multiple of 4 elements (the kernel "
              "stores whole chunks of 4 with store_whole), got 1026 elements");
  }
}

}  // namespace
}  // namespace carbide
