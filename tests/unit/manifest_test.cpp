// The output manifest: an image is reusable only while its files hash to what the manifest says.
#include "output/manifest.hpp"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

namespace carbide::output {
namespace {

class ManifestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    llvm::SmallString<128> dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("carbide-manifest-test", dir));
    dir_ = dir.str().str();
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir_); }
  void write(const std::string& name, const std::string& content) {
    std::error_code error;
    llvm::raw_fd_ostream out(dir_ + "/" + name, error);
    ASSERT_FALSE(error);
    out << content;
  }
  // Writes the files and their manifest as a translation would.
  void commit(const std::vector<OutputFile>& files, const std::string& key) {
    ASSERT_EQ(write_set(dir_, files, make_manifest(dir_, "k", key, files)), "");
  }
  std::string dir_;
};

TEST_F(ManifestTest, HashIsStableAndSensitive) {
  EXPECT_EQ(content_hash("abc"), content_hash("abc"));
  EXPECT_NE(content_hash("abc"), content_hash("abd"));
  EXPECT_EQ(content_hash("").size(), 32u);
}

TEST_F(ManifestTest, ReusesAnIntactImage) {
  commit({{dir_ + "/k.ptx", ".entry k"}, {dir_ + "/k.carbide.cpp", "stubs"}}, "key1");
  auto image = read_previous_image(dir_, "k");
  ASSERT_TRUE(image);
  EXPECT_EQ(image->key, "key1");
  EXPECT_EQ(image->ptx, ".entry k");
  EXPECT_EQ(image->fatbin, "");
}

TEST_F(ManifestTest, RefusesAChangedOrMissingImage) {
  commit({{dir_ + "/k.ptx", ".entry k"}}, "key1");
  write("k.ptx", ".entry");  // truncated
  EXPECT_FALSE(read_previous_image(dir_, "k"));
  llvm::sys::fs::remove(dir_ + "/k.ptx");
  EXPECT_FALSE(read_previous_image(dir_, "k"));
}

TEST_F(ManifestTest, RefusesAChangedFatbinAndAMissingManifest) {
  commit({{dir_ + "/k.ptx", ".entry k"}, {dir_ + "/k.fatbin", "FAT"}}, "key1");
  ASSERT_TRUE(read_previous_image(dir_, "k"));
  EXPECT_EQ(read_previous_image(dir_, "k")->fatbin, "FAT");
  write("k.fatbin", "FAT2");
  EXPECT_FALSE(read_previous_image(dir_, "k"));
  commit({{dir_ + "/k.ptx", ".entry k"}}, "key1");
  llvm::sys::fs::remove(manifest_path(dir_, "k"));
  EXPECT_FALSE(read_previous_image(dir_, "k"));
}

TEST_F(ManifestTest, RefusesAForeignOrGarbledManifest) {
  write("k.ptx", ".entry k");
  write(".k.carbide-manifest", "not a manifest\n");
  EXPECT_FALSE(read_previous_image(dir_, "k"));
  write(".k.carbide-manifest", "carbide manifest 1\nimage-key x\n");  // lists no .ptx
  EXPECT_FALSE(read_previous_image(dir_, "k"));
}

}  // namespace
}  // namespace carbide::output
