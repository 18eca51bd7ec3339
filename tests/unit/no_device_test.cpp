// What a program sees where it cannot get a GPU: Context::create's NoDeviceError, and the line
// report_error prints for main's handler.
#include <carbide/runtime.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace {

TEST(NoDeviceError, SaysWhyThereIsNoDevice) {
  const carbide::NoDeviceError error(0, 0, "the CUDA driver (libcuda.so.1) is not installed");
  EXPECT_STREQ(error.what(), "no CUDA device: the CUDA driver (libcuda.so.1) is not installed");
  EXPECT_EQ(error.ordinal(), 0);
  EXPECT_EQ(error.device_count(), 0);
}

TEST(NoDeviceError, NamesTheOrdinalsThatExist) {
  EXPECT_STREQ(carbide::NoDeviceError(1, 1, "").what(),
               "no CUDA device 1: this machine has 1 (ordinal 0)");
  EXPECT_STREQ(carbide::NoDeviceError(-1, 4, "").what(),
               "no CUDA device -1: this machine has 4 (ordinals 0 to 3)");
}

// On any machine: with no device, create(0) says why, in the words unavailable_reason() uses;
// with N devices, create(N) says which ordinals exist.
TEST(NoDeviceError, IsWhatContextCreateThrowsPastTheLastDevice) {
  const int count = carbide::Context::device_count();
  try {
    carbide::Context::create(count);
    FAIL() << "Context::create(" << count << ") returned";
  } catch (const carbide::NoDeviceError& error) {
    const std::string expected =
        count == 0 ? "no CUDA device: " + carbide::Context::unavailable_reason()
                   : carbide::NoDeviceError(count, count, "").what();
    EXPECT_EQ(error.what(), expected);
    EXPECT_EQ(error.device_count(), count);
  }
}

TEST(ReportError, PrintsTheProgramsFileNameAndTheMessageOnStderr) {
  testing::internal::CaptureStderr();
  const int status = carbide::report_error(
      "demo/build/vecadd", carbide::NoDeviceError(0, 0, "the CUDA driver found no GPU"));
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "vecadd: error: no CUDA device: the CUDA driver found no GPU\n");
  EXPECT_EQ(status, 1);
}

TEST(ReportError, TakesAnyExceptionAndAMissingProgramName) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(carbide::report_error(nullptr, std::runtime_error("out of memory")), 1);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "program: error: out of memory\n");
}

}  // namespace
