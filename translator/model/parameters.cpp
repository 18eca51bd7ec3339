#include "model/parameters.hpp"

#include "model/user_code.hpp"
#include "model/vocabulary.hpp"

#include <clang/Basic/SourceManager.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/QualTypeNames.h>
#include <clang/AST/RecursiveASTVisitor.h>

namespace carbide::model {
namespace {

// The element type of a Carbide view of `kind`: `float` of `disjoint_span<float>`, and in a
// kernel template `T` of `disjoint_span<T>`, a type that depends on the template's parameters.
std::optional<clang::QualType> view_element(clang::QualType type, vocabulary::View kind) {
  const auto* record = type.getCanonicalType()->getAsCXXRecordDecl();
  if (const auto* spec = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(record)) {
    if (vocabulary::view_kind(spec) != kind) return std::nullopt;
    return spec->getTemplateArgs()[0].getAsType();
  }
  const auto* dependent = type->getAs<clang::TemplateSpecializationType>();
  const auto* view = dependent ? llvm::dyn_cast_or_null<clang::ClassTemplateDecl>(
                                     dependent->getTemplateName().getAsTemplateDecl())
                               : nullptr;
  if (view == nullptr || vocabulary::view_kind(view->getTemplatedDecl()) != kind ||
      dependent->template_arguments().empty() ||
      dependent->template_arguments()[0].getKind() != clang::TemplateArgument::Type)
    return std::nullopt;
  return dependent->template_arguments()[0].getAsType();
}

// The API header comes before the user's code, so a record scalar is forward-declared there.
std::string forward_declaration(const clang::CXXRecordDecl* record) {
  std::string text = std::string(record->isClass() ? "class " : "struct ") +
                     record->getNameAsString() + ";";
  for (const clang::DeclContext* scope = record->getDeclContext();
       !scope->isTranslationUnit(); scope = scope->getParent()) {
    const auto* ns = llvm::cast<clang::NamespaceDecl>(scope);
    text = "namespace " + ns->getNameAsString() + " { " + text + " }";
  }
  return text;
}

bool declared_at_namespace_scope(const clang::CXXRecordDecl* record) {
  if (record->getIdentifier() == nullptr || llvm::isa<clang::ClassTemplateSpecializationDecl>(record))
    return false;
  for (const clang::DeclContext* scope = record->getDeclContext(); !scope->isTranslationUnit();
       scope = scope->getParent()) {
    const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(scope);
    if (ns == nullptr || ns->isAnonymousNamespace() || ns->isInline()) return false;
  }
  return true;
}

// A type of the user's own (a record or an enum from their file or headers) must be declared
// before the API header's use of it. Records at namespace scope are forward-declared; anything
// else is marked unsupported. Returns false when it is.
bool name_user_type(clang::QualType type, clang::ASTContext& context, Parameter& result) {
  const clang::SourceManager& sources = context.getSourceManager();
  if (const auto* record = type->getAsCXXRecordDecl()) {
    if (!in_user_code(sources, record)) return true;
    if (!declared_at_namespace_scope(record)) {
      result.unsupported = UnsupportedParam::UnnameableScalar;
      return false;
    }
    result.forward_declaration = forward_declaration(record);
    result.user_record = record;
  } else if (const auto* enumeration = type->getAs<clang::EnumType>()) {
    if (in_user_code(sources, enumeration->getDecl())) {
      result.unsupported = UnsupportedParam::UnnameableScalar;
      return false;
    }
  }
  return true;
}

// `carbide::tile::out<T, shape<...>>` and `carbide::tile::in<T, Rank>`, as written or
// instantiated: the record and its template arguments.
std::optional<std::pair<vocabulary::TileRecord, llvm::ArrayRef<clang::TemplateArgument>>> tile_parameter(
    clang::QualType type) {
  const auto* record = type.getCanonicalType()->getAsCXXRecordDecl();
  if (const auto* spec = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(record))
    if (auto kind = vocabulary::tile_record(spec)) return std::pair{*kind, spec->getTemplateArgs().asArray()};
  const auto* dependent = type->getAs<clang::TemplateSpecializationType>();
  const auto* pattern = dependent ? llvm::dyn_cast_or_null<clang::ClassTemplateDecl>(
                                        dependent->getTemplateName().getAsTemplateDecl())
                                  : nullptr;
  if (pattern != nullptr)
    if (auto kind = vocabulary::tile_record(pattern->getTemplatedDecl()))
      return std::pair{*kind, dependent->template_arguments()};
  return std::nullopt;
}

std::string spell_argument(const clang::TemplateArgument& argument, const clang::ASTContext& context) {
  if (argument.getKind() == clang::TemplateArgument::Type) return spell_type(argument.getAsType(), context);
  clang::PrintingPolicy policy(context.getLangOpts());
  policy.FullyQualifiedName = true;
  std::string text;
  llvm::raw_string_ostream out(text);
  argument.print(policy, out, /*IncludeType=*/false);
  return text;
}

// True when `type` writes a template argument as an expression other than a literal, as
// `vec<float, kTaps>`: printed, the expression names what only the user's scope declares, so
// the generated files could not compile it.
bool spells_an_argument_expression(clang::QualType type) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    bool found = false;
    bool VisitTemplateSpecializationType(clang::TemplateSpecializationType* specialization) {
      for (const clang::TemplateArgument& argument : specialization->template_arguments())
        if (argument.getKind() == clang::TemplateArgument::Expression &&
            !llvm::isa<clang::IntegerLiteral>(argument.getAsExpr()->IgnoreParenImpCasts()))
          found = true;
      return !found;
    }
  };
  Finder finder;
  finder.TraverseType(type);
  return finder.found;
}

// True when `type` names an alias the user declared (`using Taps = vec<float, 17>;`): the API
// header comes before the user's code, so it cannot name the alias, only what it stands for.
bool names_a_user_alias(clang::QualType type, const clang::ASTContext& context) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::SourceManager* sources = nullptr;
    bool found = false;
    bool VisitTypedefType(clang::TypedefType* alias) {
      found = found || in_user_code(*sources, alias->getDecl());
      return !found;
    }
  };
  Finder finder;
  finder.sources = &context.getSourceManager();
  finder.TraverseType(type);
  return finder.found;
}

}  // namespace

std::string spell_type(clang::QualType type, const clang::ASTContext& context) {
  // Outside a template the canonical type has the arguments' values (`vec<float, 5>`) and no
  // alias of the user's.
  if (!type->isDependentType() && (spells_an_argument_expression(type) || names_a_user_alias(type, context)))
    type = type.getCanonicalType();
  clang::PrintingPolicy policy(context.getLangOpts());
  policy.SuppressScope = false;
  policy.FullyQualifiedName = true;
  return clang::TypeName::getFullyQualifiedName(type, context, policy);
}

Parameter classify_parameter(const clang::ParmVarDecl* param, clang::ASTContext& context) {
  Parameter result;
  result.decl = param;
  result.name = param->getNameAsString();
  const clang::QualType type = param->getType();
  result.device_type = spell_type(type.getUnqualifiedType(), context);

  if (type->isPointerType()) {
    result.unsupported = UnsupportedParam::RawPointer;
    result.element_type = spell_type(type->getPointeeType().getUnqualifiedType(), context);
    return result;
  }
  if (type->isReferenceType()) {
    result.unsupported = UnsupportedParam::Reference;
    return result;
  }
  if (const auto tile = tile_parameter(type);
      tile && (tile->first == vocabulary::TileRecord::Out || tile->first == vocabulary::TileRecord::In) &&
      tile->second.size() == 2) {
    result.element_type = spell_argument(tile->second[0], context);
    if (tile->second[0].getKind() == clang::TemplateArgument::Type) {
      const clang::QualType element = tile->second[0].getAsType();
      const auto* record = element->getAsCXXRecordDecl();
      const bool sixteen_bit = record && (vocabulary::named_tile_element(record));
      if (!element->isDependentType() && !element->isArithmeticType() && !sixteen_bit) {
        result.unsupported = UnsupportedParam::TileElement;
        return result;
      }
    }
    if (tile->first == vocabulary::TileRecord::Out) {
      result.kind = ParamKind::TileOut;
      result.tile_shape = spell_argument(tile->second[1], context);
    } else {
      result.kind = ParamKind::TileIn;
      result.tile_rank = spell_argument(tile->second[1], context);
    }
    return result;
  }
  for (auto [view_kind, kind] : {std::pair{vocabulary::View::Read, ParamKind::ReadView},
                                 std::pair{vocabulary::View::Read2D, ParamKind::ReadView2D}}) {
    if (const auto found = view_element(type, view_kind)) {
      const clang::QualType element = *found;
      result.element_type = spell_type(element.getUnqualifiedType(), context);
      if (!element.isConstQualified()) {
        result.unsupported = UnsupportedParam::MutableSharedView;
        return result;
      }
      if (name_user_type(element, context, result)) result.kind = kind;
      return result;
    }
  }
  for (auto [view_kind, kind] : {std::pair{vocabulary::View::Exclusive, ParamKind::ExclusiveView},
                                 std::pair{vocabulary::View::Exclusive2D, ParamKind::ExclusiveView2D},
                                 std::pair{vocabulary::View::Atomic, ParamKind::AtomicView}}) {
    if (const auto element = view_element(type, view_kind)) {
      result.element_type = spell_type(element->getUnqualifiedType(), context);
      if (name_user_type(*element, context, result)) result.kind = kind;
      return result;
    }
  }
  // A template's own parameter type is judged in each instance, where it is known.
  if (type->isDependentType()) {
    result.kind = ParamKind::Scalar;
    return result;
  }
  if (!type.isTriviallyCopyableType(context) || type->isArrayType()) {
    result.unsupported = UnsupportedParam::NotTriviallyCopyable;
    return result;
  }
  if (!name_user_type(type, context, result)) return result;
  result.kind = ParamKind::Scalar;
  return result;
}

}  // namespace carbide::model
