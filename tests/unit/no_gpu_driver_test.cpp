// Run with tests/unit/fake_driver's libcuda.so.1 first on LD_LIBRARY_PATH (the
// no_gpu_behind_a_driver test does): a driver is installed, and it finds no GPU.
#include <carbide/runtime.hpp>

#include <gtest/gtest.h>

TEST(NoGpuBehindADriver, ContextCreateSaysTheDriverFoundNoGpu) {
  EXPECT_EQ(carbide::Context::device_count(), 0);
  EXPECT_EQ(carbide::Context::unavailable_reason(), "the CUDA driver found no GPU (CUDA_ERROR_NO_DEVICE)");
  try {
    carbide::Context::create(0);
    FAIL() << "Context::create(0) returned";
  } catch (const carbide::NoDeviceError& error) {
    EXPECT_STREQ(error.what(), "no CUDA device: the CUDA driver found no GPU (CUDA_ERROR_NO_DEVICE)");
  }
}
