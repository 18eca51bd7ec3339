// Carbide's device dialect as an allow-list (default deny): what device code may say, statement
// class by statement class (dialect_statements.def) and type feature by type feature, each with
// the analysis that models it or the reason it is refused. carbide-device-unsupported enforces
// it; docs/dialect.md is its rendering (markdown()).
#pragma once

#include <clang/AST/Stmt.h>
#include <clang/AST/Type.h>

#include <llvm/ADT/ArrayRef.h>

#include <string>

namespace carbide::model::dialect {

enum class Verdict { Allowed, OutsideBarrierCode, ImplicitCall, Cast, TemplatePattern, Refused };

struct StatementRule {
  clang::Stmt::StmtClass klass;
  const char* name;  // Clang's class name, "IfStmt"
  Verdict verdict;
  const char* why;
};

// Every row of the table, in dialect_statements.def's order.
llvm::ArrayRef<StatementRule> statements();
// The row of one class; every class Clang 19 has is in the table (tests/unit/dialect_test.cpp).
const StatementRule& statement(clang::Stmt::StmtClass klass);

// A type feature device code may use only under a condition.
struct TypeRule {
  const char* feature;
  const char* condition;
};
llvm::ArrayRef<TypeRule> type_features();

// True when `type` is, holds (through fields, bases, arrays), points to or refers to a witness,
// a view, a shared array or a tile handle: what a cast or a union could forge or alias.
bool holds_protected_type(clang::QualType type);
// True when `type` holds (through fields, bases, arrays, pointers) a shared array handle.
bool holds_shared_array(clang::QualType type);
// True when `type` holds (through fields, bases, arrays) a union one of whose members holds a
// protected type.
bool holds_protected_union(clang::QualType type);
// True for a pointer to a pointer and a reference to a non-const pointer: a pointer changed
// through them changes without an assignment that names it.
bool is_pointer_handle(clang::QualType type);
// True when `type` (a view's element type) has a `mutable` field, through fields and bases: a
// read-only view could then write it.
bool has_mutable_field(clang::QualType type);

// docs/dialect.md.
std::string markdown();

}  // namespace carbide::model::dialect
