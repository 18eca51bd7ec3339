// constant_tables: the model's facts about CARBIDE_CONSTANT declarations: each table's shape,
// element type and device symbol, the module that sets it, why one that cannot be a table cannot,
// and that the device code holds every table whether or not a kernel reads it.
#include "model/constant_tables.hpp"

#include "analysis_test_support.hpp"
#include "model/model_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using namespace carbide;
using namespace carbide::testing;

const std::string kKernel =
    "CARBIDE_KERNEL\nCARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))\n"
    "void kern(carbide::disjoint_span<float> out) {\n"
    "  auto idx = carbide::thread::index_1d();\n"
    "  if (float* e = out.get_mut(idx)) *e = taps[idx.get() % 17];\n}\n";

struct Parsed {
  std::unique_ptr<clang::ASTUnit> ast;
  model::Program program;
};

Parsed build(const std::string& code) {
  Parsed parsed{parse(code), {}};
  EXPECT_TRUE(parsed.ast);
  if (parsed.ast) parsed.program = model::build_program(parsed.ast->getASTContext());
  return parsed;
}

const model::ConstantTable* table_named(const model::Program& program, const std::string& name) {
  for (const model::ConstantTable& table : program.constant_tables)
    if (table.name == name) return &table;
  return nullptr;
}

bool in_device_code(const model::Program& program, const model::ConstantTable& table) {
  const auto& decls = program.device.top_level_decls;
  return std::find(decls.begin(), decls.end(), table.decl) != decls.end();
}

TEST(ConstantTables, ATableHasItsShapeTypeAndDeviceSymbol) {
  const Parsed parsed = build("namespace conv {\nconstexpr int kTaps = 17;\n"
                              "CARBIDE_CONSTANT float taps[kTaps];\n"
                              "CARBIDE_CONSTANT unsigned mix[2][3];\n"
                              "CARBIDE_CONSTANT double gain;\n" + kKernel + "}\n");
  const model::ConstantTable* taps = table_named(parsed.program, "taps");
  ASSERT_NE(taps, nullptr);
  EXPECT_EQ(taps->problem, "");
  EXPECT_EQ(taps->qualified_name, "conv::taps");
  EXPECT_EQ(taps->element_type, "float");
  EXPECT_EQ(taps->extents, std::vector<std::uint64_t>{17});
  EXPECT_EQ(taps->elements, 17u);
  EXPECT_EQ(taps->symbol, "_ZN4conv4tapsE");
  const model::ConstantTable* mix = table_named(parsed.program, "mix");
  ASSERT_NE(mix, nullptr);
  EXPECT_EQ(mix->element_type, "unsigned int");
  EXPECT_EQ(mix->extents, (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(mix->elements, 6u);
  const model::ConstantTable* gain = table_named(parsed.program, "gain");
  ASSERT_NE(gain, nullptr);
  EXPECT_TRUE(gain->extents.empty());
  EXPECT_EQ(gain->elements, 1u);
  ASSERT_EQ(parsed.program.modules.size(), 1u);
  EXPECT_EQ(model::constant_tables_of(parsed.program, parsed.program.modules.front()).size(), 3u);
}

TEST(ConstantTables, TheDeviceHoldsEveryTableAndWhatItsTypeNames) {
  const Parsed parsed = build("namespace conv {\nconstexpr int kUnread = 4;\n"
                              "CARBIDE_CONSTANT float unread[kUnread];\n"
                              "CARBIDE_CONSTANT float taps[17];\n" + kKernel + "}\n");
  const model::ConstantTable* unread = table_named(parsed.program, "unread");
  ASSERT_NE(unread, nullptr);
  EXPECT_TRUE(in_device_code(parsed.program, *unread));
  const auto& decls = parsed.program.device.top_level_decls;
  EXPECT_TRUE(std::any_of(decls.begin(), decls.end(), [](const clang::Decl* decl) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(decl);
    return var && var->getName() == "kUnread";
  }));
}

TEST(ConstantTables, ThoseThatCannotBeTablesSayWhy) {
  const Parsed parsed = build("struct Pair { float a, b; };\n"
                              "namespace conv {\n"
                              "CARBIDE_CONSTANT const float fixed[2] = {1.f, 2.f};\n"
                              "CARBIDE_CONSTANT Pair pairs[2];\n"
                              "CARBIDE_CONSTANT float huge[1 << 15];\n"
                              "CARBIDE_CONSTANT float taps[17];\n" + kKernel + "}\n"
                              "namespace elsewhere { CARBIDE_CONSTANT float orphan[2]; }\n"
                              "namespace { CARBIDE_CONSTANT float hidden[2]; }\n");
  const auto problem = [&](const std::string& name) {
    const model::ConstantTable* table = table_named(parsed.program, name);
    return table ? table->problem : "not found";
  };
  EXPECT_NE(problem("fixed").find("not const"), std::string::npos);
  EXPECT_NE(problem("pairs").find("its elements are 'Pair'"), std::string::npos);
  EXPECT_NE(problem("huge").find("131072 bytes"), std::string::npos);
  EXPECT_NE(problem("orphan").find("no kernel is declared in its namespace"), std::string::npos);
  EXPECT_NE(problem("hidden").find("anonymous namespace"), std::string::npos);
  EXPECT_EQ(problem("taps"), "");
  ASSERT_EQ(parsed.program.modules.size(), 1u);
  EXPECT_EQ(model::constant_tables_of(parsed.program, parsed.program.modules.front()).size(), 1u);
}

}  // namespace
