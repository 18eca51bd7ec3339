// changed_variables: which variables a statement may change (assigned or stepped in place, or
// reachable through an alias it makes); stored_variable: the variable a write lands in; and
// escaping_variables: the variables a function uses other than by reading or assigning them.
#include "analysis/changed_variables.hpp"

#include "analysis_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using carbide::analysis::changed_variables;
using carbide::analysis::escaping_variables;
using carbide::analysis::stored_variable;
using namespace carbide::testing;

const char* const kHelpers =
    "struct Params { int n; int m; };\n"
    "struct Acc { int total; Acc& operator+=(int k) { total += k; return *this; } };\n"
    "void bump(int& v) { ++v; }\n"
    "int peek(const int& v) { return v; }\n"
    "int copy(int v) { return v; }\n"
    "struct Counter { int count; void tick() { ++count; } int value() const { return count; } };\n"
    "struct Ref { int& r; };\n";

struct Function {
  std::unique_ptr<clang::ASTUnit> ast;
  const clang::FunctionDecl* function = nullptr;

  // The variable (local or parameter) of `function` named `name`.
  const clang::VarDecl* variable(const std::string& name) const {
    const clang::VarDecl* found = variable_named(function, name);
    EXPECT_TRUE(found) << name;
    return found;
  }
  const clang::Stmt* body() const { return function->getBody(); }
  // The first statement of the body's kind `T` (a loop, say), searched in the body's own list.
  template <class T>
  const T* first_statement() const {
    for (const clang::Stmt* statement : llvm::cast<clang::CompoundStmt>(body())->body())
      if (const auto* found = llvm::dyn_cast<T>(statement)) return found;
    ADD_FAILURE() << "no such statement";
    return nullptr;
  }
};

Function parsed(const std::string& body) {
  Function result;
  result.ast = parse(std::string(kHelpers) +
                     "void f(unsigned n, int* ptr, Params* pp, carbide::span<const float> in,\n"
                     "       carbide::disjoint_span<float> out) {\n" + body + "\n}\n");
  EXPECT_TRUE(result.ast);
  EXPECT_FALSE(result.ast->getDiagnostics().hasErrorOccurred());
  result.function = function_named(result.ast->getASTContext(), "f");
  return result;
}

TEST(ChangedVariables, AssignmentsAndStepsAreAssigned) {
  const Function f = parsed("int a = 0, b = 0, c = 0, d = 0, e = 0;\n"
                            "a = 1; b += 2; ++c; d--; int g = e + 1; (void)g;");
  const auto changed = changed_variables(f.body());
  for (const char* name : {"a", "b", "c", "d"}) {
    EXPECT_TRUE(changed.assigned.count(f.variable(name))) << name;
    EXPECT_FALSE(changed.aliased.count(f.variable(name))) << name;
  }
  // Only read, and only initialised: neither changes after its initialisation.
  EXPECT_FALSE(changed.changed(f.variable("e")));
  EXPECT_FALSE(changed.changed(f.variable("g")));
}

// A write to a member or an element changes the variable that holds it; a write through a pointer
// changes what it points to, not the pointer.
TEST(ChangedVariables, WritesToAMemberOrElementChangeTheirVariable) {
  const Function f = parsed("Params p{1, 2}; int offsets[4] = {}; int grid[2][2] = {};\n"
                            "p.n = 3; offsets[1] += 4; ++grid[1][0];\n"
                            "*ptr = 5; ptr[2] = 6; pp->m = 7;");
  const auto changed = changed_variables(f.body());
  EXPECT_TRUE(changed.assigned.count(f.variable("p")));
  EXPECT_TRUE(changed.assigned.count(f.variable("offsets")));
  EXPECT_TRUE(changed.assigned.count(f.variable("grid")));
  EXPECT_FALSE(changed.changed(f.variable("ptr")));
  EXPECT_FALSE(changed.changed(f.variable("pp")));
}

TEST(ChangedVariables, AClassAssignmentOperatorAssigns) {
  const Function f = parsed("Acc acc{0}; Params p{1, 2}; Params q{3, 4};\nacc += 3; q = p;");
  const auto changed = changed_variables(f.body());
  EXPECT_TRUE(changed.assigned.count(f.variable("acc")));
  EXPECT_TRUE(changed.assigned.count(f.variable("q")));
  EXPECT_FALSE(changed.changed(f.variable("p")));  // the copy's source is only read
}

// `&x` lets a write through the pointer change x where no assignment names it.
TEST(ChangedVariables, TakingTheAddressAliases) {
  const Function f = parsed("int x = 0; Params s{0, 0}; int cells[4] = {};\n"
                            "int* px = &x; int* pn = &s.m; int* pc = &cells[2];\n"
                            "*px = 1; *pn = 2; *pc = 3;");
  const auto changed = changed_variables(f.body());
  for (const char* name : {"x", "s", "cells"}) {
    EXPECT_TRUE(changed.aliased.count(f.variable(name))) << name;
    EXPECT_FALSE(changed.assigned.count(f.variable(name))) << name;
  }
  EXPECT_FALSE(changed.changed(f.variable("px")));
}

// A mutable reference, bound in a declaration or to a parameter, is an alias; a const one, or a
// copy, is not.
TEST(ChangedVariables, OnlyMutableReferencesAlias) {
  const Function f = parsed("int y = 0, z = 0, w = 0, u = 0, v = 0;\n"
                            "int& ry = y; const int& rz = z;\n"
                            "bump(w); (void)peek(u); (void)copy(v); ry = rz;");
  const auto changed = changed_variables(f.body());
  EXPECT_TRUE(changed.aliased.count(f.variable("y")));
  EXPECT_TRUE(changed.aliased.count(f.variable("w")));
  EXPECT_FALSE(changed.changed(f.variable("z")));
  EXPECT_FALSE(changed.changed(f.variable("u")));
  EXPECT_FALSE(changed.changed(f.variable("v")));
}

// A lambda written in the statement changes what its body assigns.
TEST(ChangedVariables, AssignmentsInsideALambdaCount) {
  const Function f = parsed("int k = 0; auto set = [&] { k = 1; }; set();");
  EXPECT_TRUE(changed_variables(f.body()).assigned.count(f.variable("k")));
}

// The facts are the asked statement's own: a loop body reports its own writes, not those before it.
TEST(ChangedVariables, OnlyTheStatementAskedIsSearched) {
  const Function f = parsed("int base = 0; base = int(n); int sum = 0;\n"
                            "for (int i = 0; i < 4; ++i) sum += base;");
  const auto changed = changed_variables(f.first_statement<clang::ForStmt>());
  EXPECT_TRUE(changed.assigned.count(f.variable("i")));
  EXPECT_TRUE(changed.assigned.count(f.variable("sum")));
  EXPECT_FALSE(changed.changed(f.variable("base")));
}

// A lambda's call passes the closure first: `k` is the argument for the lambda's `int&`.
TEST(ChangedVariables, ALambdasArgumentForAMutableReferenceAliases) {
  const Function f = parsed("int k = 0; auto set = [](int& v) { v = 5; }; set(k);");
  const auto changed = changed_variables(f.body());
  EXPECT_TRUE(changed.aliased.count(f.variable("k")));
  EXPECT_FALSE(changed.changed(f.variable("set")));  // a lambda that is not mutable stays as it was
}

// A non-const member function may change its object through `this`; a const one only reads it.
TEST(ChangedVariables, ANonConstMemberCallChangesItsObject) {
  const Function f = parsed("Counter counter{0}, other{0}; counter.tick(); (void)other.value();");
  const auto changed = changed_variables(f.body());
  EXPECT_TRUE(changed.aliased.count(f.variable("counter")));
  EXPECT_FALSE(changed.changed(f.variable("other")));
}

// A range-for's mutable reference is bound to each element: writing it writes the array. A copy
// of each element leaves the array alone.
TEST(ChangedVariables, ARangeForsMutableReferenceAliasesTheArray) {
  const Function f = parsed("int arr[4] = {}, copied[4] = {};\n"
                            "for (int& v : arr) v = 1; for (int v : copied) (void)v;");
  const auto changed = changed_variables(f.body());
  EXPECT_TRUE(changed.aliased.count(f.variable("arr")));
  EXPECT_FALSE(changed.changed(f.variable("copied")));
}

// A reference member bound to a variable lets a write through the member change it.
TEST(ChangedVariables, AReferenceMemberBoundToAVariableAliasesIt) {
  const Function f = parsed("int a = 0; Ref holder{a}; holder.r = 5;");
  EXPECT_TRUE(changed_variables(f.body()).aliased.count(f.variable("a")));
}

// `(c ? a : b) = x` writes either arm, and no assignment names it: both are aliased.
TEST(ChangedVariables, AWriteThroughAConditionalChangesBothArms) {
  const Function f = parsed("int a = 0, b = 0; (n > 2 ? a : b) = 5;");
  const auto changed = changed_variables(f.body());
  for (const char* name : {"a", "b"}) {
    EXPECT_TRUE(changed.aliased.count(f.variable(name))) << name;
    EXPECT_FALSE(changed.assigned.count(f.variable(name))) << name;
  }
}

// A mutable reference bound to a conditional may be either arm.
TEST(ChangedVariables, AReferenceBoundToAConditionalAliasesBothArms) {
  const Function f = parsed("int a = 0, b = 0; int& r = n > 2 ? a : b; r = 5;");
  const auto changed = changed_variables(f.body());
  EXPECT_TRUE(changed.aliased.count(f.variable("a")));
  EXPECT_TRUE(changed.aliased.count(f.variable("b")));
}

TEST(ChangedVariables, NoStatementChangesNothing) {
  const auto changed = changed_variables(nullptr);
  EXPECT_TRUE(changed.assigned.empty());
  EXPECT_TRUE(changed.aliased.empty());
}

TEST(StoredVariable, IsTheVariableHoldingTheMemberOrElement) {
  const Function f = parsed("Params p{1, 2}; int grid[2][2] = {}; int k = 1;\n"
                            "p.n = 0; grid[k][0] = 0; k = 2; *ptr = 0; ptr[k] = 0; pp->n = 0;");
  clang::ASTContext& context = f.ast->getASTContext();
  auto target_of = [&](const std::string& assignment) -> const clang::VarDecl* {
    const auto* op = llvm::dyn_cast_or_null<clang::BinaryOperator>(expr_spelled(context, f.function, assignment));
    EXPECT_TRUE(op) << assignment;
    return op ? stored_variable(op->getLHS()) : nullptr;
  };
  EXPECT_EQ(target_of("p.n = 0"), f.variable("p"));
  EXPECT_EQ(target_of("grid[k][0] = 0"), f.variable("grid"));
  EXPECT_EQ(target_of("k = 2"), f.variable("k"));
  // Through a pointer the storage is wherever it points: no variable of the function.
  EXPECT_EQ(target_of("*ptr = 0"), nullptr);
  EXPECT_EQ(target_of("ptr[k] = 0"), nullptr);
  EXPECT_EQ(target_of("pp->n = 0"), nullptr);
}

// What a function only reads, assigns, steps or copies changes only where an assignment names it,
// so the definitions the analyses collect are all of them.
TEST(EscapingVariables, ReadsAssignmentsAndCopiesDoNotEscape) {
  const Function f = parsed("int x = 0; Params p{1, 2}; int cells[4] = {};\n"
                            "x = 3; ++x; x += int(n); p.n = x; cells[1] = p.m;\n"
                            "Params q = p; q = p; (void)copy(x + cells[2]);");
  const auto escaping = escaping_variables(f.body());
  for (const char* name : {"x", "p", "cells", "q"}) EXPECT_FALSE(escaping.count(f.variable(name))) << name;
}

// A const reference can be cast back to a mutable one, so any reference bound counts.
TEST(EscapingVariables, AddressesAndAnyReferenceEscape) {
  const Function f = parsed("int x = 0, y = 0, z = 0, w = 0, v = 0;\n"
                            "int* px = &x; int& ry = y; const int& rz = z; (void)peek(w); bump(v);\n"
                            "(void)px; (void)ry; (void)rz;");
  const auto escaping = escaping_variables(f.body());
  for (const char* name : {"x", "y", "z", "w", "v"}) EXPECT_TRUE(escaping.count(f.variable(name))) << name;
}

// Carbide's own const functions are trusted not to cast their arguments' constness away.
TEST(EscapingVariables, CarbidesConstFunctionsOnlyRead) {
  const Function f = parsed("auto idx = carbide::thread::index_1d(); std::size_t i = idx.get();\n"
                            "if (i < in.size()) if (float* e = out.get_mut(idx)) *e = in[i];");
  const auto escaping = escaping_variables(f.body());
  for (const char* name : {"idx", "i", "in", "out"}) EXPECT_FALSE(escaping.count(f.variable(name))) << name;
}

// A lambda's call changes what it captured by reference and writes: no assignment at the call
// names it. A capture by copy, or a reference capture only read, leaves the variable alone.
TEST(EscapingVariables, AWriteThroughAReferenceCaptureEscapes) {
  const Function f = parsed("int a = 0, b = 0, c = 0;\n"
                            "auto bump_a = [&] { ++a; }; auto read_b = [&] { return b; };\n"
                            "auto bump_copy = [c]() mutable { return ++c; };\n"
                            "bump_a(); (void)read_b(); (void)bump_copy();");
  const auto escaping = escaping_variables(f.body());
  EXPECT_TRUE(escaping.count(f.variable("a")));
  EXPECT_FALSE(escaping.count(f.variable("b")));
  EXPECT_FALSE(escaping.count(f.variable("c")));
  EXPECT_FALSE(escaping.count(f.variable("bump_a")));  // calling a lambda that is not mutable
}

}  // namespace
