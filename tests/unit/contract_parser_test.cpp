#include "contract/contract_parser.hpp"

#include <gtest/gtest.h>

namespace carbide::contract {
namespace {

NameValue known_names(std::string_view name) {
  if (name == "kBlock") return std::int64_t(128);
  if (name == "cfg::kTile") return std::int64_t(16);
  if (name == "kRuntime") return std::string("it is not constexpr");
  if (name == "sizeof(Particle)") return std::int64_t(24);
  return std::string("no declaration of that name is visible");
}

Contract parsed(std::string_view text) {
  ContractResult result = parse_contract(text, known_names);
  if (auto* error = std::get_if<ContractError>(&result)) {
    ADD_FAILURE() << "'" << text << "' was rejected: " << error->message;
    return {};
  }
  return std::get<Contract>(result);
}

std::string error_of(std::string_view text) {
  ContractResult result = parse_contract(text, known_names);
  if (auto* error = std::get_if<ContractError>(&result)) return error->message;
  ADD_FAILURE() << "'" << text << "' was accepted";
  return "";
}

TEST(ContractParser, ReadsTheDesignExample) {
  const Contract c = parsed("domain = 1, block = (256, 1, 1)");
  EXPECT_EQ(c.domain, 1);
  EXPECT_EQ(c.block[0], 256u);
  EXPECT_EQ(c.block[1], 1u);
  EXPECT_EQ(c.block[2], 1u);
  EXPECT_EQ(c.dynamic_shared_bytes, 0u);
  EXPECT_EQ(c.min_compute, 0);
}

TEST(ContractParser, ReadsEveryField) {
  const Contract c = parsed("domain = 2, block = (16, 16, 1), dynamic_shared = 4096, min_compute = 80");
  EXPECT_EQ(c.domain, 2);
  EXPECT_EQ(c.block[1], 16u);
  EXPECT_EQ(c.dynamic_shared_bytes, 4096u);
  EXPECT_EQ(c.min_compute, 80);
  EXPECT_EQ(c.index_bits, 64);
  EXPECT_EQ(parsed("domain = 1, block = 256, index_bits = 32").index_bits, 32);
  EXPECT_EQ(parsed("domain = 1, block = 256, index_bits = 64").index_bits, 64);
  EXPECT_EQ(c.covers, "");
  // A parameter's name, taken as written: the resolver of constants is not asked.
  EXPECT_EQ(parsed("domain = 1, block = 256, covers = in").covers, "in");
  EXPECT_EQ(error_of("domain = 1, block = 256, covers = 4"),
            "expected a view parameter's name for 'covers', found '4'");
}

TEST(ContractParser, ShortBlockFormsDefaultToOne) {
  EXPECT_EQ(parsed("domain = 1, block = 512").block[0], 512u);
  const Contract c = parsed("domain = 2, block = (32, 8)");
  EXPECT_EQ(c.block[0], 32u);
  EXPECT_EQ(c.block[1], 8u);
  EXPECT_EQ(c.block[2], 1u);
}

TEST(ContractParser, EvaluatesConstantExpressions) {
  EXPECT_EQ(parsed("domain = 1, block = (kBlock / 2, 1, 1)").block[0], 64u);
  EXPECT_EQ(parsed("domain = 1, block = ((kBlock + 2) * 2 - 4, 1, 1)").block[0], 256u);
  EXPECT_EQ(parsed("domain = 1, block = 1 << 8").block[0], 256u);
  EXPECT_EQ(parsed("domain = 1, block = 96 % 64 + kBlock").block[0], 160u);
  EXPECT_EQ(parsed("domain = 1, block = 256, dynamic_shared = 2048 * sizeof(float)").dynamic_shared_bytes, 8192u);
  EXPECT_EQ(parsed("domain = 1, block = 256, dynamic_shared = kBlock * sizeof( unsigned  int )").dynamic_shared_bytes, 512u);
  EXPECT_EQ(parsed("domain = 1, block = 256, dynamic_shared = 10 * sizeof(Particle)").dynamic_shared_bytes, 240u);
}

TEST(ContractParser, RejectsExpressionsThatCannotBeEvaluated) {
  EXPECT_NE(error_of("domain = 1, block = kBlock / 0").find("divides by zero"), std::string::npos);
  EXPECT_NE(error_of("domain = 1, block = 4611686018427387904 * 4").find("overflows"), std::string::npos);
  EXPECT_NE(error_of("domain = 1, block = 256, dynamic_shared = sizeof(Missing)").find("sizeof(Missing)"),
            std::string::npos);
  EXPECT_NE(error_of("domain = 1, block = (kBlock / 2").find("found the end"), std::string::npos);
}

TEST(ContractParser, ResolvesConstexprNames) {
  EXPECT_EQ(parsed("domain = 1, block = (kBlock, 1, 1)").block[0], 128u);
  EXPECT_EQ(parsed("domain = 2, block = (cfg::kTile, cfg::kTile, 1)").block[1], 16u);
}

TEST(ContractParser, ReadsIntegerLiteralForms) {
  EXPECT_EQ(parsed("domain = 1, block = 0x100").block[0], 256u);
  EXPECT_EQ(parsed("domain = 1, block = 256u").block[0], 256u);
  EXPECT_EQ(parsed("domain = 1, block = 256, dynamic_shared = 48'000").dynamic_shared_bytes, 48000u);
}

TEST(ContractParser, UnknownFieldSuggestsTheClosest) {
  EXPECT_EQ(error_of("domain = 1, blok = (256, 1, 1)"), "unknown contract field 'blok'");
  ContractResult result = parse_contract("domain = 1, block = 256, dynamic_smem = 4", known_names);
  EXPECT_EQ(std::get<ContractError>(result).fix, "did you mean 'dynamic_shared'?");
}

TEST(ContractParser, RequiresDomainAndBlock) {
  EXPECT_EQ(error_of("block = (256, 1, 1)"), "the contract has no 'domain'");
  EXPECT_EQ(error_of("domain = 1"), "the contract has no 'block'");
  EXPECT_EQ(error_of(""), "the contract is empty");
}

TEST(ContractParser, RejectsBadValues) {
  EXPECT_EQ(error_of("domain = 4, block = 256"), "'domain' must be 1, 2 or 3, got 4");
  EXPECT_EQ(error_of("domain = 1, block = (0, 1, 1)"), "'block' must be positive, got 0");
  EXPECT_EQ(error_of("domain = 1, block = 256, min_compute = 9"),
            "'min_compute' is a compute capability written major*10+minor, got 9");
  EXPECT_EQ(error_of("domain = 1, block = 256, index_bits = 16"), "'index_bits' is 32 or 64, got 16");
  EXPECT_EQ(error_of("domain = 1, block = kRuntime"),
            "'kRuntime' in 'block' is not usable: it is not constexpr");
  EXPECT_EQ(error_of("domain = 1, block = kMissing"),
            "'kMissing' in 'block' is not usable: no declaration of that name is visible");
}

TEST(ContractParser, RejectsMalformedText) {
  EXPECT_EQ(error_of("domain 1, block = 256"), "expected '=' after 'domain', found '1, block = 2'");
  EXPECT_EQ(error_of("domain = 1, block = (256, 1"), "expected ',' between block extents, found the end");
  EXPECT_EQ(error_of("domain = 1, domain = 1, block = 256"), "field 'domain' is given twice");
  EXPECT_EQ(error_of("domain = 1; block = 256"), "expected ',' between fields, found '; block = 25'");
}

TEST(ContractParser, BlockExtentsPastTheDomainMustBeOne) {
  EXPECT_EQ(error_of("domain = 1, block = (16, 16, 1)"),
            "a domain = 1 contract has block extent 16 along y");
}

}  // namespace
}  // namespace carbide::contract
