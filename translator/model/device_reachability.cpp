#include "model/device_reachability.hpp"

#include "model/user_code.hpp"

#include <clang/Basic/SourceManager.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <optional>

namespace carbide::model {
namespace {

// The declaration as written: the template for an instantiation.
const clang::Decl* as_written(const clang::Decl* decl) {
  if (const auto* function = llvm::dyn_cast<clang::FunctionDecl>(decl))
    if (const auto* pattern = function->getTemplateInstantiationPattern()) return pattern;
  if (const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(decl))
    if (const auto* pattern = record->getTemplateInstantiationPattern()) return pattern;
  return decl;
}

// An instance whose pattern is a member of a class template or a generic lambda's call operator
// (not a function template the analyses expand themselves).
bool is_member_instance(const clang::FunctionDecl* function) {
  const clang::FunctionDecl* pattern = function->getTemplateInstantiationPattern();
  if (pattern == nullptr || pattern == function) return false;
  if (function->getPrimaryTemplate() != nullptr) {
    // A generic lambda's operator() is a member function template of the closure.
    const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(function);
    return method != nullptr && method->getParent()->isLambda();
  }
  return llvm::isa<clang::CXXMethodDecl>(function);
}

bool is_lambda_member(const clang::FunctionDecl* function) {
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(function);
  return method != nullptr && method->getParent()->isLambda();
}

// The namespace-scope declaration that contains `decl`, as the source spells it.
const clang::Decl* top_level(const clang::Decl* decl) {
  decl = as_written(decl);
  while (true) {
    const clang::DeclContext* parent = decl->getDeclContext();
    if (parent->isFileContext() || parent->isExternCContext() || parent->isExternCXXContext())
      break;
    decl = as_written(llvm::cast<clang::Decl>(parent));
  }
  if (const auto* function = llvm::dyn_cast<clang::FunctionDecl>(decl))
    if (const auto* described = function->getDescribedFunctionTemplate()) return described;
  if (const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(decl))
    if (const auto* described = record->getDescribedClassTemplate()) return described;
  return decl;
}

class Collector : public clang::RecursiveASTVisitor<Collector> {
 public:
  explicit Collector(clang::ASTContext& context) : context_(context), sources_(context.getSourceManager()) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  void add_function(const clang::FunctionDecl* function) {
    if (!in_user_code(function)) return;
    note_top_level(function);
    if (visited_.insert(function).second) pending_.push_back(function);
    if (is_member_instance(function)) member_instances_.insert(function);
    // A lambda's body is part of its enclosing function, and nvcc gives implicit members
    // both execution spaces itself.
    if (function->isImplicit() || is_lambda_member(function)) return;
    functions_.insert(llvm::cast<clang::FunctionDecl>(as_written(function)));
  }

  void add_type(const clang::CXXRecordDecl* record) { reference_type_decl(record); }

  // A namespace-scope variable, with what its type (`float taps[kTaps]`) and initializer name.
  void add_variable(const clang::VarDecl* var) {
    if (!in_user_code(var)) return;
    note_top_level(var);
    if (variables_.insert(var).second) TraverseDecl(const_cast<clang::VarDecl*>(var));
  }

  void run() {
    while (!pending_.empty()) {
      const clang::FunctionDecl* function = pending_.back();
      pending_.pop_back();
      const clang::FunctionDecl* definition = nullptr;
      if (function->hasBody(definition)) TraverseDecl(const_cast<clang::FunctionDecl*>(definition));
    }
  }

  DeviceCode finish() {
    std::sort(units_.begin(), units_.end(), [&](const clang::Decl* a, const clang::Decl* b) {
      return sources_.isBeforeInTranslationUnit(a->getBeginLoc(), b->getBeginLoc());
    });
    units_.erase(std::unique(units_.begin(), units_.end()), units_.end());
    device_.top_level_decls = units_;
    for (const clang::Decl* unit : units_)
      if (const clang::FileID file = sources_.getFileID(sources_.getExpansionLoc(unit->getBeginLoc()));
          std::find(device_.files.begin(), device_.files.end(), file) == device_.files.end())
        device_.files.push_back(file);
    device_.functions.assign(functions_.begin(), functions_.end());
    device_.member_instances.assign(member_instances_.begin(), member_instances_.end());
    std::sort(device_.member_instances.begin(), device_.member_instances.end(),
              [&](const clang::FunctionDecl* a, const clang::FunctionDecl* b) {
                return sources_.isBeforeInTranslationUnit(a->getLocation(), b->getLocation());
              });
    std::sort(device_.functions.begin(), device_.functions.end(),
              [&](const clang::FunctionDecl* a, const clang::FunctionDecl* b) {
                return sources_.isBeforeInTranslationUnit(a->getLocation(), b->getLocation());
              });
    return std::move(device_);
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    reference(ref->getDecl());
    return true;
  }
  bool VisitMemberExpr(clang::MemberExpr* member) {
    reference(member->getMemberDecl());
    return true;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr* construct) {
    reference(construct->getConstructor());
    return true;
  }
  bool VisitTagType(clang::TagType* type) {
    reference_type_decl(type->getDecl());
    return true;
  }
  bool VisitTypedefType(clang::TypedefType* type) {
    reference_type_decl(type->getDecl());
    return true;
  }
  // `ct::bf16` through the user's `namespace ct = carbide::tile;`: the alias comes along.
  bool TraverseNestedNameSpecifierLoc(clang::NestedNameSpecifierLoc qualifier) {
    for (clang::NestedNameSpecifierLoc each = qualifier; each; each = each.getPrefix())
      if (const clang::NamespaceAliasDecl* alias = each.getNestedNameSpecifier()->getAsNamespaceAlias())
        note_top_level(alias);
    return RecursiveASTVisitor::TraverseNestedNameSpecifierLoc(qualifier);
  }
  bool VisitTemplateSpecializationType(clang::TemplateSpecializationType* type) {
    if (auto* named = type->getTemplateName().getAsTemplateDecl()) reference_type_decl(named);
    return true;
  }

 private:
  bool in_user_code(const clang::Decl* decl) const { return model::in_user_code(sources_, decl); }

  void note_top_level(const clang::Decl* decl) {
    if (in_user_code(decl)) units_.push_back(top_level(decl));
  }

  void reference(const clang::ValueDecl* decl) {
    if (decl == nullptr || !in_user_code(decl)) return;
    if (const auto* function = llvm::dyn_cast<clang::FunctionDecl>(decl)) {
      add_function(function);
    } else if (const auto* var = llvm::dyn_cast<clang::VarDecl>(decl); var && !var->getDeclContext()->isFunctionOrMethod()) {
      add_variable(var);
    } else if (!decl->getDeclContext()->isFunctionOrMethod()) {
      note_top_level(decl);
    }
  }

  // A type's declaration is emitted whole; what its data members name comes with it. Its member
  // functions are not followed here: only the ones device code calls are device functions.
  void reference_type_decl(const clang::NamedDecl* decl) {
    if (decl == nullptr || !in_user_code(decl) || decl->getDeclContext()->isFunctionOrMethod())
      return;
    if (!types_.insert(decl).second) return;
    note_top_level(decl);
    if (const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(decl)) {
      if (const clang::CXXRecordDecl* definition = record->getDefinition()) {
        // The field as written: its type, array bounds (`float tap[kTaps]`) and initializer.
        for (const clang::FieldDecl* field : definition->fields())
          TraverseDecl(const_cast<clang::FieldDecl*>(field));
        for (const clang::CXXBaseSpecifier& base : definition->bases())
          TraverseType(base.getType());
      }
    } else if (const auto* alias = llvm::dyn_cast<clang::TypedefNameDecl>(decl)) {
      TraverseType(alias->getUnderlyingType());
    }
  }

  clang::ASTContext& context_;
  const clang::SourceManager& sources_;
  DeviceCode device_;
  std::vector<const clang::Decl*> units_;
  std::set<const clang::FunctionDecl*> visited_;
  std::set<const clang::FunctionDecl*> functions_;
  std::set<const clang::FunctionDecl*> member_instances_;
  std::set<const clang::NamedDecl*> types_;
  std::set<const clang::VarDecl*> variables_;
  std::vector<const clang::FunctionDecl*> pending_;
};

// The header a line `#include <name>` names, read by hand: a regular expression over a line of
// user code (which may be very long) would recurse over its length.
std::optional<llvm::StringRef> angled_include(llvm::StringRef line) {
  line = line.ltrim();
  if (!line.consume_front("#")) return std::nullopt;
  line = line.ltrim();
  if (!line.consume_front("include")) return std::nullopt;
  line = line.ltrim();
  if (!line.consume_front("<")) return std::nullopt;
  const llvm::StringRef name = line.take_while([](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.' || c == '/';
  });
  if (name.empty() || !line.drop_front(name.size()).starts_with(">")) return std::nullopt;
  return name;
}

// Standard headers whose contents nvcc accepts in device code, as the files holding device code
// include them.
std::vector<std::string> device_usable_includes(const clang::SourceManager& sources,
                                                const std::vector<clang::FileID>& files) {
  static const std::set<llvm::StringRef> usable = {
      "algorithm", "array",  "cfloat", "climits", "cmath",       "cstddef", "cstdint",
      "float.h",   "limits", "math.h", "stddef.h", "stdint.h",   "type_traits", "utility"};
  std::vector<std::string> result;
  for (const clang::FileID file : files) {
    llvm::StringRef text = sources.getBufferData(file);
    while (!text.empty()) {
      auto [line, rest] = text.split('\n');
      text = rest;
      const auto name = angled_include(line);
      if (name && usable.count(*name) && std::find(result.begin(), result.end(), *name) == result.end())
        result.push_back(name->str());
    }
  }
  return result;
}

}  // namespace

DeviceCode collect_device_code(clang::ASTContext& context, const std::vector<const clang::FunctionDecl*>& kernels,
                               const std::vector<const clang::VarDecl*>& variables) {
  Collector collector(context);
  for (const clang::FunctionDecl* kernel : kernels) collector.add_function(kernel);
  for (const clang::VarDecl* variable : variables) collector.add_variable(variable);
  collector.run();
  DeviceCode device = collector.finish();
  device.std_includes = device_usable_includes(context.getSourceManager(), device.files);
  return device;
}

std::vector<const clang::Decl*> collect_type_definitions(
    clang::ASTContext& context, const std::vector<const clang::CXXRecordDecl*>& records) {
  Collector collector(context);
  for (const clang::CXXRecordDecl* record : records) collector.add_type(record);
  return collector.finish().top_level_decls;
}

}  // namespace carbide::model
