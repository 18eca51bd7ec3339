// The device-side checks on a real device, and the same checks on the CPU context. A failed check
// on a GPU (a trap, or for span reads a load from address 0) ends the CUDA context it happened in,
// so each launch that should fail runs in a child process of its own (a gtest death test that
// re-runs this binary), and the parent reads how the child ended. On the CPU the launch throws a
// carbide::KernelError naming the check, the line and the thread, and the context lives on.
#include "gpu_kernels.carbide.hpp"
#include "gpu_test_support.hpp"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr unsigned kBlock = 256;

enum class Reads { Elements, WholeChunks };

// Exits 0 when the launch completes with the expected copy, 4 when it completes with another,
// 3 (printing the error) when the driver reports a failure.
[[noreturn]] void copy_shifted_then_exit(Reads reads, std::uint32_t shift) {
  try {
    auto ctx = test_context();
    auto stream = ctx.default_stream();
    const std::size_t n = kBlock * 64;
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = float(i);
    auto in = carbide::DeviceBuffer<float>::from_host(stream, values);
    auto out = carbide::DeviceBuffer<float>::zeroed(stream, n);
    auto module = gpu_vocabulary::load(ctx);
    if (reads == Reads::Elements)
      module.shifted_copy(stream, module.prepare_shifted_copy(carbide::LaunchConfig1D(n / kBlock, kBlock)),
                          in, shift, out);
    else
      module.shifted_whole_chunks(
          stream, module.prepare_shifted_whole_chunks(carbide::LaunchConfig1D(n / 4 / kBlock, kBlock)), in,
          shift, out);
    const std::vector<float> copied = out.to_host_vec(stream);
    const std::size_t offset = reads == Reads::Elements ? shift : 4 * std::size_t(shift);
    for (std::size_t i = 0; i + offset < n; ++i)
      if (copied[i] != values[i + offset]) std::exit(4);
  } catch (const carbide::Error& error) {
    std::fprintf(stderr, "%s\n", error.what());
    std::exit(3);
  }
  std::exit(0);
}

// Exits 0 when a butterfly step at `stride` completes, 3 (printing the error) when it fails.
[[noreturn]] void butterfly_then_exit(unsigned stride) {
  try {
    auto ctx = test_context();
    auto stream = ctx.default_stream();
    const std::size_t n = kBlock * 8;
    auto data = carbide::DeviceBuffer<float>::zeroed(stream, n);
    auto claims = carbide::DeviceBuffer<unsigned>::zeroed(stream, n);
    auto module = gpu_vocabulary::load(ctx);
    module.walsh_step(stream, module.prepare_walsh_step(carbide::LaunchConfig1D(n / 2 / kBlock, kBlock)), data,
                      stride, claims);
    (void)data.to_host_vec(stream);
  } catch (const carbide::Error& error) {
    std::fprintf(stderr, "%s\n", error.what());
    std::exit(3);
  }
  std::exit(0);
}

// Exits 0 when the merge at `length` completes with slot 0 holding the sum it should, 4 when it
// completes with another value, 3 (printing the error) when the launch fails.
[[noreturn]] void merge_then_exit(unsigned length) {
  try {
    auto ctx = test_context();
    auto stream = ctx.default_stream();
    auto out = carbide::DeviceBuffer<float>::zeroed(stream, 2 * kBlock);
    auto module = gpu_vocabulary::load(ctx);
    module.required_merge(stream, module.prepare_required_merge(carbide::LaunchConfig1D(1, kBlock)), out, length);
    const std::vector<float> merged = out.to_host_vec(stream);
    // Each stride adds the partner's slot: slot 0 ends with the sum of `length` ones.
    if (merged[0] != float(length)) std::exit(4);
  } catch (const carbide::Error& error) {
    std::fprintf(stderr, "%s\n", error.what());
    std::exit(3);
  }
  std::exit(0);
}

// What the failed launch says: the driver's error on a GPU, the CPU check's own words there.
const char* expected_failure(const char* on_gpu, const char* on_cpu) { return testing_on_cpu() ? on_cpu : on_gpu; }

// CARBIDE_REQUIRE holds for 64 and stops the launch with a device-side assertion for 96.
TEST(DeviceChecks, UnmetRequirementStopsTheLaunch) {
  CARBIDE_REQUIRE_DEVICE();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(merge_then_exit(64), testing::ExitedWithCode(0), "");
  EXPECT_EXIT(merge_then_exit(96), testing::ExitedWithCode(3),
              expected_failure("CUDA_ERROR_ASSERT",
                               "kernel gpu_vocabulary::required_merge: requirement failed: length >= 2 .* "
                               "at .*gpu_kernels.cpp:[0-9]+ in block \\(0,0,0\\) thread \\("));
}

// Pairs are disjoint only for a power-of-two stride: another one traps instead of letting two
// threads share an element.
TEST(DeviceChecks, ButterflyStrideThatIsNotAPowerOfTwoFailsTheLaunch) {
  CARBIDE_REQUIRE_DEVICE();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(butterfly_then_exit(4), testing::ExitedWithCode(0), "");
  EXPECT_EXIT(butterfly_then_exit(3), testing::ExitedWithCode(3),
              expected_failure("CUDA_ERROR_[A-Z_]+", "kernel gpu_vocabulary::walsh_step: carbide::disjoint_span::"
                                                     "get_mut_pair: stride 3 is not a power of two, .*, at "
                                                     ".*gpu_kernels.cpp:[0-9]+ in block"));
}

TEST(DeviceChecks, ReadPastTheEndOfASpanFailsTheLaunchInsteadOfReadingOtherMemory) {
  CARBIDE_REQUIRE_DEVICE();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(copy_shifted_then_exit(Reads::Elements, 0), testing::ExitedWithCode(0), "");
  EXPECT_EXIT(copy_shifted_then_exit(Reads::Elements, 1), testing::ExitedWithCode(3),
              expected_failure("CUDA_ERROR_[A-Z_]+", "kernel gpu_vocabulary::shifted_copy: index 16384 is past the "
                                                     "end of 'in' \\(16384 elements\\), at .*gpu_kernels.cpp:[0-9]+"));
}

TEST(DeviceChecks, WholeChunkPastTheEndFailsTheLaunch) {
  CARBIDE_REQUIRE_DEVICE();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(copy_shifted_then_exit(Reads::WholeChunks, 0), testing::ExitedWithCode(0), "");
  EXPECT_EXIT(copy_shifted_then_exit(Reads::WholeChunks, 1), testing::ExitedWithCode(3),
              expected_failure("CUDA_ERROR_[A-Z_]+", "the chunk of elements \\[16384, 16388\\) of 'in' runs past "
                                                     "its end \\(16384 elements\\), at .*gpu_kernels.cpp:[0-9]+"));
}

}  // namespace
