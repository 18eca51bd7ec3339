#include "nvcc/ptx_directives.hpp"

#include <gtest/gtest.h>

namespace carbide::nvcc {
namespace {

const char* kPtx = R"(.visible .entry carbide_k_a(
	.param .u64 p
)
.maxntid 256, 1, 1
.minnctapersm 2
{
	ret;
}
.visible .entry carbide_k_b(
	.param .u64 p
)
.maxntid 256, 1, 1
{
	ret;
}
)";

TEST(PtxDirectives, MakesOnlyTheNamedEntriesExact) {
  std::string missing;
  const std::string out = require_exact_blocks(kPtx, {{"carbide_k_a", {16, 16, 1}}}, missing);
  EXPECT_EQ(missing, "");
  EXPECT_NE(out.find(".reqntid 16, 16, 1\n.minnctapersm 2"), std::string::npos) << out;
  // carbide_k_b keeps its upper bound.
  EXPECT_NE(out.find(")\n.maxntid 256, 1, 1\n{"), std::string::npos) << out;
}

TEST(PtxDirectives, ReportsAnEntryWithoutMaxntid) {
  std::string missing;
  require_exact_blocks(".visible .entry carbide_k_c(\n)\n{\n\tret;\n}\n", {{"carbide_k_c", {32, 1, 1}}},
                       missing);
  EXPECT_EQ(missing, "carbide_k_c");
}

TEST(PtxDirectives, DoesNotTakeTheNextEntrysDirective) {
  std::string missing;
  const std::string ptx = ".visible .entry carbide_k_c(\n)\n{\n\tret;\n}\n"
                          ".visible .entry carbide_k_d(\n)\n.maxntid 64, 1, 1\n{\n}\n";
  const std::string out = require_exact_blocks(ptx, {{"carbide_k_c", {64, 1, 1}}}, missing);
  EXPECT_EQ(missing, "carbide_k_c");
  EXPECT_EQ(out, ptx);
}

}  // namespace
}  // namespace carbide::nvcc
