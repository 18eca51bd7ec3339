// The dialect is an allow-list: every statement and expression class Clang 19 has is in the
// table, allowed (with what models it) or refused, and nothing else is; docs/dialect.md is the
// table's rendering. A Clang upgrade that adds a class fails here until the class is placed.
#include "model/dialect.hpp"

#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace {

namespace dialect = carbide::model::dialect;
using namespace carbide::testing;

// Clang's own list of its concrete statement classes.
const std::set<std::string>& clang_classes() {
  static const std::set<std::string> classes = {
#define STMT(CLASS, PARENT) #CLASS,
#define ABSTRACT_STMT(STMT)
#include <clang/AST/StmtNodes.inc>
  };
  return classes;
}

TEST(Dialect, EveryClangStatementClassHasOneRow) {
  std::set<std::string> rows;
  for (const dialect::StatementRule& rule : dialect::statements()) {
    EXPECT_TRUE(rows.insert(rule.name).second) << rule.name << " has two rows";
    EXPECT_TRUE(clang_classes().count(rule.name)) << rule.name << " is not a class of Clang 19";
    EXPECT_NE(std::string(rule.why), "") << rule.name << " says neither what models it nor why it is refused";
  }
  for (const std::string& klass : clang_classes())
    EXPECT_TRUE(rows.count(klass)) << klass << " is neither allowed nor refused in dialect_statements.def";
}

TEST(Dialect, RowsAreFoundByClass) {
  EXPECT_EQ(dialect::statement(clang::Stmt::GotoStmtClass).verdict, dialect::Verdict::Allowed);
  EXPECT_EQ(dialect::statement(clang::Stmt::ConditionalOperatorClass).verdict, dialect::Verdict::OutsideBarrierCode);
  EXPECT_EQ(dialect::statement(clang::Stmt::CXXThrowExprClass).verdict, dialect::Verdict::Refused);
  EXPECT_EQ(dialect::statement(clang::Stmt::IfStmtClass).verdict, dialect::Verdict::Allowed);
  EXPECT_EQ(dialect::statement(clang::Stmt::CXXReinterpretCastExprClass).verdict, dialect::Verdict::Cast);
  EXPECT_STREQ(dialect::statement(clang::Stmt::CXXDefaultArgExprClass).name, "CXXDefaultArgExpr");
}

// The type facts the rule asks of a kernel's declarations.
TEST(Dialect, ProtectedTypesAreFoundThroughFieldsPointersAndUnions) {
  auto ast = parse(R"(
    struct Plain { float a; int* p; };
    struct HoldsWitness { int n; carbide::thread::index_1d_witness* w; };
    union Forge { carbide::thread::index_1d_witness* w; unsigned long bits; };
    struct Outer { Forge inner; };
    union Harmless { float f; unsigned u; };
    struct Cached { float value; mutable int hits; };
    struct Derived : Cached {};
    void device(Plain a, HoldsWitness b, Outer c, Harmless d, carbide::span<const float> v, Cached e,
                Derived f, float** pp, float*& rp, float* const& crp, const float* p) {}
  )");
  ASSERT_TRUE(ast);
  ASSERT_FALSE(ast->getDiagnostics().hasErrorOccurred());
  const clang::FunctionDecl* device = function_named(ast->getASTContext(), "device");
  ASSERT_NE(device, nullptr);
  auto type = [&](unsigned i) { return device->getParamDecl(i)->getType(); };
  EXPECT_FALSE(dialect::holds_protected_type(type(0)));
  EXPECT_TRUE(dialect::holds_protected_type(type(1)));
  EXPECT_TRUE(dialect::holds_protected_type(type(2)));
  EXPECT_TRUE(dialect::holds_protected_type(type(4)));
  EXPECT_FALSE(dialect::holds_protected_union(type(1)));
  EXPECT_TRUE(dialect::holds_protected_union(type(2)));
  EXPECT_FALSE(dialect::holds_protected_union(type(3)));
  EXPECT_FALSE(dialect::has_mutable_field(type(0)));
  EXPECT_TRUE(dialect::has_mutable_field(type(5)));
  EXPECT_TRUE(dialect::has_mutable_field(type(6)));
  EXPECT_TRUE(dialect::is_pointer_handle(type(7)));
  EXPECT_TRUE(dialect::is_pointer_handle(type(8)));
  EXPECT_FALSE(dialect::is_pointer_handle(type(9)));
  EXPECT_FALSE(dialect::is_pointer_handle(type(10)));
}

TEST(Dialect, DocsPageIsTheTablesRendering) {
  const std::string rendered = dialect::markdown();
  if (const char* target = std::getenv("CARBIDE_WRITE_DIALECT_DOC")) std::ofstream(target) << rendered;
  std::ifstream page(CARBIDE_TEST_SOURCE_DIR "/docs/dialect.md");
  std::stringstream text;
  text << page.rdbuf();
  EXPECT_TRUE(text.str() == rendered) << "docs/dialect.md is stale: run this test with "
                                         "CARBIDE_WRITE_DIALECT_DOC=docs/dialect.md from the source root";
}

}  // namespace
