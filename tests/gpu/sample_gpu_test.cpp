// Runs the vecadd sample, unchanged from DESIGN §1, and reads its verdict.
#include "gpu_test_support.hpp"

#include <array>
#include <cstdio>
#include <string>

#if defined(CARBIDE_VECADD_SAMPLE)
TEST(Samples, VecaddPrintsPassed) {
  CARBIDE_REQUIRE_DEVICE();
  std::string output;
  FILE* pipe = popen(CARBIDE_VECADD_SAMPLE " 2>&1", "r");
  ASSERT_NE(pipe, nullptr);
  std::array<char, 256> chunk;
  while (fgets(chunk.data(), chunk.size(), pipe)) output += chunk.data();
  const int status = pclose(pipe);
  EXPECT_EQ(status, 0) << output;
  EXPECT_NE(output.find("PASSED: all 1024 elements correct"), std::string::npos) << output;
}
#endif
