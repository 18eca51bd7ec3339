#include "constant_table.hpp"

#include "model/annotations.hpp"
#include "model/module_api.hpp"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <set>

namespace carbide::rules {
namespace {

// Evaluated uses of a table in the file's host code: everything outside device code, except
// sizeof, alignof and decltype, which read no value.
class HostUseFinder : public clang::RecursiveASTVisitor<HostUseFinder> {
 public:
  HostUseFinder(const RuleContext& context, std::string_view rule) : context_(context), rule_(rule) {
    const model::Program& program = context.program;
    device_.insert(program.device.functions.begin(), program.device.functions.end());
    device_.insert(program.tile_code.functions.begin(), program.tile_code.functions.end());
  }

  bool TraverseDecl(clang::Decl* decl) {
    if (decl == nullptr) return true;
    const clang::SourceManager& sources = context_.ast.getSourceManager();
    if (decl->getDeclContext() != nullptr && decl->getDeclContext()->isFileContext() &&
        !llvm::isa<clang::NamespaceDecl>(decl) && !sources.isInMainFile(sources.getExpansionLoc(decl->getLocation())))
      return true;
    if (const auto* function = llvm::dyn_cast<clang::FunctionDecl>(decl); function && device_.count(function))
      return true;
    return RecursiveASTVisitor::TraverseDecl(decl);
  }
  bool TraverseUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr*) { return true; }
  bool TraverseDecltypeTypeLoc(clang::DecltypeTypeLoc) { return true; }

  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    const auto* table = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (table == nullptr || !model::is_constant_table(table)) return true;
    const std::string name = table->getNameAsString();
    auto result = finding(rule_, diag::Severity::Error, ref->getLocation(),
                          "host code uses the constant table '" + name +
                              "', whose host copy no kernel reads; set the table with module." +
                              model::constant_setter_name(name) + "(stream, values), and keep the host's values "
                              "in a variable of its own",
                          ref->getSourceRange());
    result.notes.push_back({table->getLocation(), "'" + name + "' declared here"});
    context_.reporter.report(std::move(result));
    return true;
  }

 private:
  const RuleContext& context_;
  std::string_view rule_;
  std::set<const clang::FunctionDecl*> device_;
};

}  // namespace

void ConstantTableRule::check(const RuleContext& context) {
  for (const model::ConstantTable& table : context.program.constant_tables)
    if (!table.problem.empty())
      context.reporter.report(finding(name(), diag::Severity::Error, table.decl->getLocation(),
                                      "'" + table.name + "' cannot be a constant table: " + table.problem,
                                      table.decl->getSourceRange()));
  if (!context.program.constant_tables.empty())
    HostUseFinder(context, name()).TraverseDecl(context.ast.getTranslationUnitDecl());
}

}  // namespace carbide::rules
