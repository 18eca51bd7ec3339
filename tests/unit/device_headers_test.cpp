// The nvcc result cache keys on Carbide's device headers: a Carbide update that changes them
// compiles the device code again even when the generated .cu reads the same.
#include "nvcc/nvcc_driver.hpp"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <string>

namespace {

void write(const std::string& path, const std::string& text) {
  std::error_code error;
  llvm::raw_fd_ostream out(path, error);
  ASSERT_FALSE(error) << error.message();
  out << text;
}

TEST(DeviceHeaders, ChangeWhenAHeaderChangesAndOnlyThen) {
  llvm::SmallString<128> root;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("carbide-headers", root));
  const std::string include = root.str().str();
  ASSERT_FALSE(llvm::sys::fs::create_directory(include + "/carbide"));
  write(include + "/carbide/device.hpp", "// v1\n");
  write(include + "/carbide/block.hpp", "// blocks\n");
  const std::string first = carbide::nvcc::device_headers(include);
  EXPECT_EQ(first, carbide::nvcc::device_headers(include));
  write(include + "/unrelated.hpp", "// not Carbide's\n");
  EXPECT_EQ(first, carbide::nvcc::device_headers(include));
  write(include + "/carbide/device.hpp", "// v2\n");
  EXPECT_NE(first, carbide::nvcc::device_headers(include));
  llvm::sys::fs::remove_directories(include);
}

}  // namespace
