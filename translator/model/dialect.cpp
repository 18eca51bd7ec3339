#include "model/dialect.hpp"

#include "model/vocabulary.hpp"

#include <clang/AST/DeclCXX.h>

#include <algorithm>
#include <set>

namespace carbide::model::dialect {
namespace {

constexpr StatementRule kStatements[] = {
#define DIALECT_STATEMENT(CLASS, VERDICT, WHY) {clang::Stmt::CLASS##Class, #CLASS, Verdict::VERDICT, WHY},
#include "model/dialect_statements.def"
#undef DIALECT_STATEMENT
};

constexpr TypeRule kTypeFeatures[] = {
    {"union", "allowed when no member holds a witness, a view, a shared array or a tile handle: "
              "writing one member and reading another would forge or alias it"},
    {"cast", "allowed unless it starts or ends at a type holding a witness, a view, a shared array "
             "or a tile handle, or a pointer or reference to one (casts to void and adding const "
             "are fine)"},
    {"mutable member", "not in a view's element type: a read-only view (span<const T>) could "
                       "then write the element"},
    {"pointer to a pointer, reference to a pointer", "only inside CARBIDE_UNSAFE: provenance "
                                                     "follows a pointer through assignments that name it"},
    {"shared array handle", "only as made by carbide::block::shared (or dynamic_shared) into a local, "
                            "and passed to helpers: shared memory is known by the call that made its "
                            "handle, so a copy into another local or a struct is refused"},
};

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::Allowed: return "allowed";
    case Verdict::OutsideBarrierCode: return "allowed outside barrier code";
    case Verdict::ImplicitCall: return "allowed without block effects";
    case Verdict::Cast: return "allowed, not on Carbide types";
    case Verdict::TemplatePattern: return "template patterns only";
    case Verdict::Refused: return "refused";
  }
  return "";
}

bool is_protected_record(const clang::CXXRecordDecl* record) {
  return vocabulary::witness_kind(record) || vocabulary::view_kind(record) ||
         vocabulary::is_shared_array(record) || vocabulary::tile_handle(record);
}

// The record a type names once pointers, references and arrays are taken off.
const clang::CXXRecordDecl* underlying_record(clang::QualType type) {
  for (;;) {
    type = type.getNonReferenceType();
    if (const auto* array = type->getAsArrayTypeUnsafe()) type = array->getElementType();
    else if (type->isPointerType()) type = type->getPointeeType();
    else return type->getAsCXXRecordDecl();
  }
}

template <class Test>
bool any_in_record(const clang::CXXRecordDecl* record, Test test, std::set<const clang::CXXRecordDecl*>& seen) {
  if (record == nullptr || !seen.insert(record).second) return false;
  record = record->getDefinition();
  if (record == nullptr) return false;
  if (test(record)) return true;
  for (const clang::FieldDecl* field : record->fields())
    if (any_in_record(underlying_record(field->getType()), test, seen)) return true;
  for (const clang::CXXBaseSpecifier& base : record->bases())
    if (any_in_record(base.getType()->getAsCXXRecordDecl(), test, seen)) return true;
  return false;
}

}  // namespace

llvm::ArrayRef<StatementRule> statements() { return kStatements; }

const StatementRule& statement(clang::Stmt::StmtClass klass) {
  static const auto* by_class = [] {
    auto* rows = new std::vector<const StatementRule*>(clang::Stmt::lastStmtConstant + 1, nullptr);
    for (const StatementRule& rule : kStatements) (*rows)[rule.klass] = &rule;
    return rows;
  }();
  return *(*by_class)[klass];
}

llvm::ArrayRef<TypeRule> type_features() { return kTypeFeatures; }

bool holds_protected_type(clang::QualType type) {
  std::set<const clang::CXXRecordDecl*> seen;
  return any_in_record(underlying_record(type), is_protected_record, seen);
}

bool holds_shared_array(clang::QualType type) {
  std::set<const clang::CXXRecordDecl*> seen;
  return any_in_record(underlying_record(type), [](const clang::CXXRecordDecl* record) {
    return vocabulary::is_shared_array(record);
  }, seen);
}

bool holds_protected_union(clang::QualType type) {
  std::set<const clang::CXXRecordDecl*> seen;
  return any_in_record(underlying_record(type), [](const clang::CXXRecordDecl* record) {
    if (!record->isUnion()) return false;
    std::set<const clang::CXXRecordDecl*> inner;
    return any_in_record(record, is_protected_record, inner);
  }, seen);
}

bool is_pointer_handle(clang::QualType type) {
  if (type->isReferenceType()) {
    const clang::QualType referred = type.getNonReferenceType();
    return referred->isPointerType() && !referred.isConstQualified();
  }
  return type->isPointerType() && type->getPointeeType()->isPointerType();
}

bool has_mutable_field(clang::QualType type) {
  std::set<const clang::CXXRecordDecl*> seen;
  return any_in_record(underlying_record(type), [](const clang::CXXRecordDecl* record) {
    return std::any_of(record->field_begin(), record->field_end(),
                       [](const clang::FieldDecl* field) { return field->isMutable(); });
  }, seen);
}

std::string markdown() {
  std::string text =
      "# Carbide's device dialect\n\n"
      "What device code (kernels and every function they reach, implicit code included) may say. "
      "The list is an allow-list: Clang's statement and expression classes each have a row, and "
      "`carbide-device-unsupported` refuses what the analyses do not model, naming the construct. "
      "Generated from `translator/model/dialect_statements.def` and `translator/model/dialect.cpp` "
      "(`tests/unit/dialect_test.cpp` fails when this page is stale: run it with "
      "`CARBIDE_WRITE_DIALECT_DOC=docs/dialect.md`).\n\n"
      "## Type features\n\n| feature | condition |\n| --- | --- |\n";
  for (const TypeRule& rule : kTypeFeatures)
    text += "| " + std::string(rule.feature) + " | " + rule.condition + " |\n";
  text += "\n## Statements and expressions\n\n"
          "Every class of `clang/AST/StmtNodes.inc`, by name.\n\n"
          "| class | verdict | why |\n| --- | --- | --- |\n";
  for (const StatementRule& rule : kStatements)
    text += "| `" + std::string(rule.name) + "` | " + verdict_name(rule.verdict) + " | " + rule.why + " |\n";
  return text;
}

}  // namespace carbide::model::dialect
