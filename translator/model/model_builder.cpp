#include "model/model_builder.hpp"

#include "model/annotations.hpp"
#include "model/constant_tables.hpp"
#include "model/device_reachability.hpp"
#include "model/parameters.hpp"

#include <clang/Basic/SourceManager.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/DeclTemplate.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <map>

namespace carbide::model {

std::size_t Program::kernel_count() const {
  std::size_t count = 0;
  for (const Module& module : modules) count += module.kernels.size() + module.kernel_templates.size();
  return count;
}

std::vector<const Kernel*> named_kernels(const Module& module) {
  std::vector<const Kernel*> kernels;
  for (const Kernel& kernel : module.kernels)
    if (!kernel.is_instance()) kernels.push_back(&kernel);
  for (const Kernel& kernel : module.kernel_templates) kernels.push_back(&kernel);
  if (!kernels.empty()) {
    const clang::SourceManager& sources = kernels.front()->decl->getASTContext().getSourceManager();
    std::stable_sort(kernels.begin(), kernels.end(), [&](const Kernel* a, const Kernel* b) {
      return sources.isBeforeInTranslationUnit(a->decl->getLocation(), b->decl->getLocation());
    });
  }
  return kernels;
}

namespace {

class KernelFinder : public clang::RecursiveASTVisitor<KernelFinder> {
 public:
  explicit KernelFinder(const clang::SourceManager& sources) : sources_(sources) {}
  // Templates as written; their instances (an explicit instantiation is visited too) are
  // found through the template.
  bool VisitFunctionDecl(clang::FunctionDecl* function) {
    if (is_file_kernel(function, sources_) && function->getPrimaryTemplate() == nullptr)
      kernels.push_back(function);
    return true;
  }
  std::vector<const clang::FunctionDecl*> kernels;

 private:
  const clang::SourceManager& sources_;
};

std::vector<std::string> namespace_path(const clang::FunctionDecl* function) {
  std::vector<std::string> path;
  for (const clang::NamespaceDecl* ns : enclosing_namespaces(function))
    path.push_back(ns->getNameAsString());
  return path;
}

// The generated API header reopens each namespace; an inline one must be reopened as inline.
std::vector<bool> inline_namespaces(const clang::FunctionDecl* function) {
  std::vector<bool> flags;
  for (const clang::NamespaceDecl* ns : enclosing_namespaces(function)) flags.push_back(ns->isInline());
  return flags;
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : separator) + part;
  return text;
}

// The argument an instance of a kernel template was given for its parameter `name`.
std::optional<clang::TemplateArgument> template_argument(const clang::FunctionDecl* kernel, llvm::StringRef name) {
  const clang::FunctionTemplateDecl* pattern = kernel->getPrimaryTemplate();
  const clang::TemplateArgumentList* arguments = kernel->getTemplateSpecializationArgs();
  if (pattern == nullptr || arguments == nullptr) return std::nullopt;
  const clang::TemplateParameterList* parameters = pattern->getTemplateParameters();
  for (unsigned i = 0; i < parameters->size() && i < arguments->size(); ++i)
    if (parameters->getParam(i)->getIdentifier() && parameters->getParam(i)->getName() == name)
      return arguments->get(i);
  return std::nullopt;
}

// An enumeration as the API header declares it before the user's file does, or empty where C++
// cannot (an unscoped enumeration without a fixed underlying type, one that is not at namespace
// scope).
std::string enum_declaration(const clang::EnumDecl* declaration, const clang::ASTContext& context) {
  if (!declaration->isScoped() && !declaration->isFixed()) return "";
  std::string text = std::string(declaration->isScoped() ? (declaration->isScopedUsingClassTag() ? "enum class " : "enum struct ")
                                                         : "enum ") +
                     declaration->getNameAsString();
  if (declaration->isFixed() && declaration->getIntegerTypeSourceInfo() != nullptr)
    text += " : " + spell_type(declaration->getIntegerType(), context);
  text += ";";
  for (const clang::DeclContext* scope = declaration->getDeclContext(); !scope->isTranslationUnit();
       scope = scope->getParent()) {
    const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(scope);
    if (ns == nullptr || ns->isAnonymousNamespace() || ns->isInline()) return "";
    text = "namespace " + ns->getNameAsString() + " { " + text + " }";
  }
  return text;
}

// `template <class T, unsigned int Block>`, as the API's member templates repeat it: without
// default arguments, which may name what the header (read before the file) cannot see. The
// enumerations it names are declared first (`declarations`).
std::string template_head(const clang::FunctionTemplateDecl& pattern, const clang::ASTContext& context,
                          std::string& names, std::string& unsupported, std::vector<std::string>& declarations) {
  std::string head;
  const clang::TemplateParameterList* parameters = pattern.getTemplateParameters();
  for (unsigned i = 0; i < parameters->size(); ++i) {
    const clang::NamedDecl* parameter = parameters->getParam(i);
    const std::string name = parameter->getIdentifier() ? parameter->getNameAsString() : "P" + std::to_string(i);
    std::string text;
    if (parameter->isTemplateParameterPack())
      unsupported = "'" + name + "' is a parameter pack";
    else if (llvm::isa<clang::TemplateTypeParmDecl>(parameter))
      text = "class " + name;
    else if (const auto* value = llvm::dyn_cast<clang::NonTypeTemplateParmDecl>(parameter);
             value && value->getType()->isIntegralOrEnumerationType()) {
      text = spell_type(value->getType(), context) + " " + name;
      if (const auto* enumeration = value->getType()->getAs<clang::EnumType>()) {
        const std::string declaration = enum_declaration(enumeration->getDecl(), context);
        if (declaration.empty())
          unsupported = "'" + name + "' is of an enumeration the launch API, declared before your file, cannot "
                        "name; make it a scoped enumeration ('enum class') at namespace scope";
        else
          declarations.push_back(declaration);
      }
    }
    else
      unsupported = "'" + name + "' is neither a type nor an integral value";
    head += (i ? ", " : "") + text;
    names += (i ? ", " : "") + name;
  }
  names = "<" + names + ">";
  return "template <" + head + ">";
}

// `<float, 256>`: an instance's arguments as C++ that names them anywhere.
std::string template_arguments(const clang::TemplateArgumentList& arguments, const clang::ASTContext& context) {
  std::string text;
  for (const clang::TemplateArgument& argument : arguments.asArray()) {
    std::string spelled;
    if (argument.getKind() == clang::TemplateArgument::Type) {
      spelled = spell_type(argument.getAsType(), context);
    } else if (argument.getKind() == clang::TemplateArgument::Integral) {
      const clang::QualType type = argument.getIntegralType();
      spelled = type->isBooleanType() ? (argument.getAsIntegral().getBoolValue() ? "true" : "false")
                                      : llvm::toString(argument.getAsIntegral(), 10);
      if (type->isEnumeralType()) spelled = "static_cast<" + spell_type(type, context) + ">(" + spelled + ")";
    }
    text += (text.empty() ? "" : ", ") + spelled;
  }
  return "<" + text + ">";
}

// `256`, `float_4`: an instance's arguments as part of an identifier.
std::string identifier_part(llvm::StringRef arguments) {
  std::string part;
  for (char c : arguments.drop_front().drop_back()) {
    if (llvm::isAlnum(c)) part += c;
    else if (!part.empty() && part.back() != '_') part += '_';
  }
  while (!part.empty() && part.back() == '_') part.pop_back();
  return part;
}

// A contract names constants the way C++ would: unqualified from the kernel's scope outwards,
// or qualified from the global namespace.
contract::NameValue resolve_name(clang::ASTContext& context, const clang::FunctionDecl* kernel,
                                 std::string_view name) {
  // `sizeof(Particle)`: the parser asks for the size of a type that is not a fundamental one.
  const bool size_of = llvm::StringRef(name.data(), name.size()).starts_with("sizeof(");
  if (size_of) name = name.substr(7, name.size() - 8);
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(name.data(), name.size()).split(parts, "::");
  if (!parts.empty() && parts.front().empty()) parts.erase(parts.begin());
  const clang::NamedDecl* found = nullptr;
  auto lookup_path = [&](const clang::DeclContext* scope) -> const clang::NamedDecl* {
    const clang::NamedDecl* current = nullptr;
    for (llvm::StringRef part : parts) {
      if (scope == nullptr) return nullptr;
      auto result = scope->lookup(&context.Idents.get(part));
      if (result.empty()) return nullptr;
      current = result.front();
      scope = llvm::dyn_cast<clang::DeclContext>(current);
    }
    return current;
  };
  if (parts.size() == 1)
    if (auto argument = template_argument(kernel, parts.front())) {
      if (size_of) {
        if (argument->getKind() != clang::TemplateArgument::Type) return std::string("it is not a type");
        return std::int64_t(context.getTypeSizeInChars(argument->getAsType()).getQuantity());
      }
      if (argument->getKind() != clang::TemplateArgument::Integral)
        return std::string("it is not an integral constant");
      return argument->getAsIntegral().getExtValue();
    }
  for (const clang::DeclContext* scope = kernel->getDeclContext(); scope && !found;
       scope = scope->getParent())
    found = lookup_path(scope);
  if (found == nullptr) return std::string("no declaration of that name is visible");
  if (size_of) {
    const auto* type = llvm::dyn_cast<clang::TypeDecl>(found);
    if (type == nullptr) return std::string("it is not a type");
    const clang::QualType declared = context.getTypeDeclType(type);
    if (declared->isIncompleteType() || declared->isDependentType())
      return std::string("its size is not known here");
    return std::int64_t(context.getTypeSizeInChars(declared).getQuantity());
  }
  if (const auto* enumerator = llvm::dyn_cast<clang::EnumConstantDecl>(found))
    return enumerator->getInitVal().getExtValue();
  const auto* var = llvm::dyn_cast<clang::VarDecl>(found);
  if (var == nullptr || !var->getType()->isIntegralOrEnumerationType())
    return std::string("it is not an integral constant");
  if (!var->isConstexpr() && !var->getType().isConstQualified())
    return std::string("it is not constexpr");
  // The model is built from parses that may have failed: Clang's evaluator must not see an
  // initializer it could not parse (it crashes on one).
  const clang::Expr* init = var->getInit();
  if (var->isInvalidDecl() || init == nullptr || init->containsErrors() || init->isValueDependent())
    return std::string("its value is not a constant expression");
  const clang::APValue* value = var->evaluateValue();
  if (value == nullptr || !value->isInt())
    return std::string("its value is not a constant expression");
  return value->getInt().getExtValue();
}

std::optional<ContractAnnotation> read_contract(clang::ASTContext& context,
                                                const clang::FunctionDecl* kernel) {
  const auto* attr = find_annotation(kernel, kContractAnnotation);
  if (attr == nullptr) return std::nullopt;
  ContractAnnotation annotation;
  annotation.location = context.getSourceManager().getExpansionLoc(attr->getLocation());
  if (attr->args_size() == 1)
    if (const auto* text =
            llvm::dyn_cast<clang::StringLiteral>((*attr->args_begin())->IgnoreParenImpCasts()))
      annotation.text = text->getString().str();
  auto parsed = contract::parse_contract(annotation.text, [&](std::string_view name) {
    return resolve_name(context, kernel, name);
  });
  if (auto* good = std::get_if<contract::Contract>(&parsed)) annotation.parsed = *good;
  else annotation.error = std::get<contract::ContractError>(parsed);
  return annotation;
}

std::optional<LaunchBounds> read_bounds(clang::ASTContext& context,
                                        const clang::FunctionDecl* kernel) {
  const auto* attr = find_annotation(kernel, kBoundsAnnotation);
  if (attr == nullptr) return std::nullopt;
  LaunchBounds bounds;
  bounds.location = context.getSourceManager().getExpansionLoc(attr->getLocation());
  std::vector<std::uint64_t> values;
  for (const clang::Expr* arg : attr->args()) {
    auto value = arg->containsErrors() || arg->isValueDependent() ? std::nullopt
                                                                   : arg->getIntegerConstantExpr(context);
    values.push_back(value && value->isStrictlyPositive() ? value->getZExtValue() : 0);
  }
  if (!values.empty()) bounds.max_threads = values[0];
  if (values.size() > 1) bounds.min_blocks = values[1];
  return bounds;
}

Kernel build_kernel(clang::ASTContext& context, const clang::FunctionDecl* function) {
  Kernel kernel;
  kernel.decl = function;
  kernel.is_tile = is_tile_kernel(function);
  kernel.name = function->getNameAsString();
  kernel.symbol = kernel.name;
  const clang::FunctionTemplateDecl* pattern = function->getDescribedFunctionTemplate();
  if (pattern == nullptr) pattern = function->getPrimaryTemplate();
  if (pattern != nullptr)
    kernel.template_head = template_head(*pattern, context, kernel.template_parameters,
                                         kernel.unsupported_template_parameter, kernel.forward_declarations);
  if (function->getPrimaryTemplate() != nullptr) {
    kernel.template_arguments = template_arguments(*function->getTemplateSpecializationArgs(), context);
    kernel.symbol += "_" + identifier_part(kernel.template_arguments);
  }
  const std::vector<std::string> path = namespace_path(function);
  kernel.qualified_name = join(path, "::") + (path.empty() ? "" : "::") + kernel.name + kernel.template_arguments;
  kernel.entry_name = "carbide_" + join(path, "_") + "_" + kernel.symbol;
  for (const clang::ParmVarDecl* param : function->parameters())
    kernel.params.push_back(classify_parameter(param, context));
  kernel.contract = read_contract(context, function);
  kernel.bounds = read_bounds(context, function);
  return kernel;
}

}  // namespace

std::vector<const clang::NamespaceDecl*> enclosing_namespaces(const clang::Decl* decl) {
  std::vector<const clang::NamespaceDecl*> namespaces;
  for (const clang::DeclContext* scope = decl->getDeclContext(); !scope->isTranslationUnit();
       scope = scope->getParent()) {
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(scope))
      namespaces.insert(namespaces.begin(), ns);
  }
  return namespaces;
}

Program build_program(clang::ASTContext& context) {
  const clang::SourceManager& sources = context.getSourceManager();
  Program program;
  if (auto entry = sources.getFileEntryRefForID(sources.getMainFileID())) {
    llvm::SmallString<256> path(entry->getName());
    llvm::sys::fs::make_absolute(path);
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
    program.source_path = path.str().str();
    program.stem = llvm::sys::path::stem(path).str();
  }
  KernelFinder finder(sources);
  finder.TraverseDecl(context.getTranslationUnitDecl());

  std::map<std::vector<std::string>, std::size_t> module_index;
  std::vector<const clang::FunctionDecl*> compiled;  // plain kernels and launched instances
  std::vector<const clang::FunctionDecl*> tile_kernels;  // lowered by the tile emitter, copied for the CPU
  for (const clang::FunctionDecl* function : finder.kernels) {
    const std::vector<std::string> path = namespace_path(function);
    auto [it, inserted] = module_index.emplace(path, program.modules.size());
    if (inserted)
      program.modules.push_back(Module{path, inline_namespaces(function), join(path, "::"), {}, {}});
    Module& module = program.modules[it->second];
    const clang::FunctionTemplateDecl* pattern = function->getDescribedFunctionTemplate();
    if (pattern == nullptr) {
      module.kernels.push_back(build_kernel(context, function));
      (module.kernels.back().is_tile ? tile_kernels : compiled).push_back(function);
      continue;
    }
    module.kernel_templates.push_back(build_kernel(context, function));
    for (const clang::FunctionDecl* instance : pattern->specializations()) {
      if (!instance->hasBody()) continue;
      Kernel kernel = build_kernel(context, instance);
      // Arguments that spell alike as identifiers (`<1, 2>` and `<12>` do not, `<a::b>` and
      // `<a_b>` could) still get entries of their own.
      const std::string symbol = kernel.symbol, entry = kernel.entry_name;
      const auto taken = [&] {
        return llvm::any_of(module.kernels, [&](const Kernel& other) { return other.symbol == kernel.symbol; });
      };
      for (int n = 2; taken(); ++n) {
        kernel.symbol = symbol + "_" + std::to_string(n);
        kernel.entry_name = entry + "_" + std::to_string(n);
      }
      (kernel.is_tile ? tile_kernels : compiled).push_back(instance);  // tile kernels are lowered, not copied
      module.kernels.push_back(std::move(kernel));
    }
  }
  program.constant_tables = find_constant_tables(context, program.modules);
  std::vector<const clang::VarDecl*> tables;
  for (const ConstantTable& table : program.constant_tables)
    if (table.problem.empty()) tables.push_back(table.decl);
  program.device = collect_device_code(context, compiled, tables);
  program.tile_code = collect_device_code(context, tile_kernels);
  std::vector<const clang::CXXRecordDecl*> view_elements;
  for (const Module& module : program.modules)
    for (const Kernel& kernel : module.kernels)
      for (const Parameter& param : kernel.params)
        if (is_view(param.kind) && param.user_record) view_elements.push_back(param.user_record);
  program.host_type_decls = collect_type_definitions(context, view_elements);
  return program;
}

}  // namespace carbide::model
