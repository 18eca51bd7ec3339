#include "model/constant_tables.hpp"

#include "model/annotations.hpp"
#include "model/model_builder.hpp"
#include "model/parameters.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/Mangle.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/STLExtras.h>

#include <memory>

namespace carbide::model {
namespace {

// The device's constant bank for user data (CUDA's __constant__ limit on every architecture).
constexpr std::uint64_t kConstantMemoryBytes = 64 * 1024;

class TableFinder : public clang::RecursiveASTVisitor<TableFinder> {
 public:
  explicit TableFinder(const clang::SourceManager& sources) : sources_(sources) {}
  bool VisitVarDecl(clang::VarDecl* var) {
    if (is_constant_table(var) && sources_.isInMainFile(sources_.getExpansionLoc(var->getLocation())))
      tables.push_back(var);
    return true;
  }
  std::vector<const clang::VarDecl*> tables;

 private:
  const clang::SourceManager& sources_;
};

bool is_number(clang::QualType type) {
  return !type->isEnumeralType() && (type->isIntegerType() || type->isRealFloatingType());
}

// Why `var`'s place cannot hold a table, or "".
std::string placement_problem(const clang::VarDecl* var, const std::vector<Module>& modules,
                              const std::vector<std::string>& path) {
  if (!var->getDeclContext()->isFileContext())
    return "a constant table is declared at namespace scope, beside the kernels that read it, not in a class";
  if (var->getDescribedVarTemplate() != nullptr || llvm::isa<clang::VarTemplateSpecializationDecl>(var))
    return "a constant table cannot be a variable template; declare one table for each element type";
  if (llvm::is_contained(path, ""))
    return "a constant table in an anonymous namespace has no name the driver can find; move it into a "
           "named namespace, beside the kernels that read it";
  if (llvm::none_of(modules, [&](const Module& module) { return module.namespace_path == path; }))
    return "no kernel is declared in its namespace, so no module sets it; declare it in the namespace of "
           "the kernels that read it";
  return "";
}

// Fills the table's shape from its type; returns why the type cannot be a table's, or "".
std::string read_type(const clang::VarDecl* var, clang::ASTContext& context, ConstantTable& table) {
  clang::QualType type = var->getType();
  if (type.isConstQualified())
    return "a constant table is set by the host, so it is not const; for a table fixed when the program "
           "is compiled, write constexpr instead of CARBIDE_CONSTANT";
  while (const clang::ArrayType* array = context.getAsArrayType(type)) {
    const auto* sized = llvm::dyn_cast<clang::ConstantArrayType>(array);
    if (sized == nullptr) return "a constant table has a size: write its extent between the brackets";
    table.extents.push_back(sized->getSize().getZExtValue());
    table.elements *= table.extents.back();
    type = array->getElementType();
  }
  type = type.getUnqualifiedType();
  if (!is_number(type) && !vocabulary::is_cuda_vector_type(type->getAsCXXRecordDecl()))
    return "its elements are '" + type.getAsString() + "': a constant table holds numbers or CUDA's vector "
           "types (float4, uint2); pass a record to the kernel as an argument instead";
  table.element_type = spell_type(type, context);
  const std::uint64_t bytes = table.elements * std::uint64_t(context.getTypeSizeInChars(type).getQuantity());
  if (table.elements == 0 || bytes > kConstantMemoryBytes)
    return "it takes " + std::to_string(bytes) + " bytes, and the device's constant memory holds " +
           std::to_string(kConstantMemoryBytes) + "; pass a table this large as a carbide::span<const T>";
  return "";
}

std::string device_symbol(const clang::VarDecl* var, clang::MangleContext& mangler) {
  if (!mangler.shouldMangleDeclName(var)) return var->getNameAsString();
  std::string symbol;
  llvm::raw_string_ostream out(symbol);
  mangler.mangleName(clang::GlobalDecl(var), out);
  return symbol;
}

}  // namespace

std::vector<ConstantTable> find_constant_tables(clang::ASTContext& context, const std::vector<Module>& modules) {
  TableFinder finder(context.getSourceManager());
  finder.TraverseDecl(context.getTranslationUnitDecl());
  std::vector<ConstantTable> tables;
  const std::unique_ptr<clang::MangleContext> mangler(context.createMangleContext());
  for (const clang::VarDecl* var : finder.tables) {
    if (var->isInvalidDecl()) continue;  // Clang has said why
    ConstantTable table;
    table.decl = var;
    table.name = var->getNameAsString();
    table.qualified_name = var->getQualifiedNameAsString();
    for (const clang::NamespaceDecl* ns : enclosing_namespaces(var)) table.namespace_path.push_back(ns->getNameAsString());
    table.problem = placement_problem(var, modules, table.namespace_path);
    if (table.problem.empty()) table.problem = read_type(var, context, table);
    if (table.problem.empty()) table.symbol = device_symbol(var, *mangler);
    tables.push_back(std::move(table));
  }
  return tables;
}

std::vector<const ConstantTable*> constant_tables_of(const Program& program, const Module& module) {
  std::vector<const ConstantTable*> tables;
  for (const ConstantTable& table : program.constant_tables)
    if (table.problem.empty() && table.namespace_path == module.namespace_path) tables.push_back(&table);
  return tables;
}

}  // namespace carbide::model
