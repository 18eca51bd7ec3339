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

TEST(DivCeil, RoundsUp) {
  EXPECT_EQ(div_ceil(1024, 256), 4u);
  EXPECT_EQ(div_ceil(1025, 256), 5u);
  EXPECT_EQ(div_ceil(1, 256), 1u);
  EXPECT_EQ(div_ceil(0, 256), 0u);
}

}  // namespace
}  // namespace carbide
