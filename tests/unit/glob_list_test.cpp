#include "diagnostics/diagnostics_engine.hpp"

#include <gtest/gtest.h>

namespace carbide::diag {
namespace {

TEST(GlobList, MatchesLikeClangTidy) {
  const GlobList all("*");
  EXPECT_TRUE(all.matches("carbide-launch-contract"));
  const GlobList some("carbide-*,-carbide-missing-contract");
  EXPECT_TRUE(some.matches("carbide-launch-contract"));
  EXPECT_FALSE(some.matches("carbide-missing-contract"));
  const GlobList none("");
  EXPECT_FALSE(none.matches("carbide-launch-contract"));
}

TEST(GlobList, LaterGlobsWin) {
  const GlobList list("-carbide-*, carbide-kernel-signature");
  EXPECT_TRUE(list.matches("carbide-kernel-signature"));
  EXPECT_FALSE(list.matches("carbide-launch-contract"));
}

}  // namespace
}  // namespace carbide::diag
