#include "model/kernel_instances.hpp"

#include "model/annotations.hpp"
#include "model/module_api.hpp"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Sema/Scope.h>
#include <clang/Sema/Sema.h>
#include <llvm/ADT/FoldingSet.h>

#include <vector>

namespace carbide::model {
namespace {

class TemplateFinder : public clang::RecursiveASTVisitor<TemplateFinder> {
 public:
  explicit TemplateFinder(const clang::SourceManager& sources) : sources_(sources) {}
  bool VisitFunctionTemplateDecl(clang::FunctionTemplateDecl* pattern) {
    if (is_file_kernel(pattern->getTemplatedDecl(), sources_)) kernels.push_back(pattern);
    return true;
  }
  std::vector<clang::FunctionTemplateDecl*> kernels;

 private:
  const clang::SourceManager& sources_;
};

// The argument lists host code used the API's launch functions for `kernel` with.
std::vector<const clang::TemplateArgumentList*> launched_arguments(const clang::FunctionTemplateDecl& kernel,
                                                                   clang::ASTContext& context) {
  std::vector<const clang::TemplateArgumentList*> lists;
  const auto module_lookup = kernel.getDeclContext()->lookup(&context.Idents.get(kModuleClassName));
  const auto* module = module_lookup.empty() ? nullptr : llvm::dyn_cast<clang::CXXRecordDecl>(module_lookup.front());
  if (module == nullptr || !module->hasDefinition()) return lists;
  const std::string name = kernel.getNameAsString();
  std::vector<llvm::FoldingSetNodeID> seen;
  for (const std::string& member : {name, prepare_function_name(name), unchecked_launch_name(name)}) {
    for (const clang::NamedDecl* found : module->getDefinition()->lookup(&context.Idents.get(member))) {
      const auto* launcher = llvm::dyn_cast<clang::FunctionTemplateDecl>(found);
      if (launcher == nullptr) continue;
      for (const clang::FunctionDecl* use : launcher->specializations()) {
        const clang::TemplateArgumentList* arguments = use->getTemplateSpecializationArgs();
        if (arguments == nullptr || arguments->size() != kernel.getTemplateParameters()->size()) continue;
        llvm::FoldingSetNodeID id;
        bool dependent = false;
        for (const clang::TemplateArgument& argument : arguments->asArray()) {
          dependent = dependent || argument.isDependent();
          argument.Profile(id, context);
        }
        if (dependent || llvm::is_contained(seen, id)) continue;
        seen.push_back(id);
        lists.push_back(arguments);
      }
    }
  }
  return lists;
}

}  // namespace

void instantiate_launched_kernels(clang::ASTUnit& ast) {
  if (!ast.hasSema()) return;
  clang::ASTContext& context = ast.getASTContext();
  clang::Sema& sema = ast.getSema();
  // The parse has ended, and with it the translation unit's scope; an instantiation that defines
  // an implicit member (a tile's move assignment) looks builtins up there, so it gets one back.
  clang::Scope unit_scope(nullptr, clang::Scope::DeclScope, sema.getDiagnostics());
  unit_scope.setEntity(context.getTranslationUnitDecl());
  clang::Scope* const previous_scope = sema.TUScope;
  if (previous_scope == nullptr) sema.TUScope = &unit_scope;
  // The instances' diagnostics come after the parse ended its source file, when the printer has
  // given up its language options; reopen it around them, or printing one dereferences nothing.
  clang::DiagnosticConsumer* printer = ast.getDiagnostics().getClient();
  if (printer != nullptr) printer->BeginSourceFile(ast.getLangOpts(), &ast.getPreprocessor());
  TemplateFinder finder(context.getSourceManager());
  finder.TraverseDecl(context.getTranslationUnitDecl());
  for (clang::FunctionTemplateDecl* kernel : finder.kernels) {
    for (const clang::TemplateArgumentList* arguments : launched_arguments(*kernel, context)) {
      clang::FunctionDecl* instance = sema.InstantiateFunctionDeclaration(kernel, arguments, kernel->getLocation());
      if (instance == nullptr || instance->isDefined()) continue;
      sema.InstantiateFunctionDefinition(kernel->getLocation(), instance, /*Recursive=*/true,
                                         /*DefinitionRequired=*/true, /*AtEndOfTU=*/true);
    }
  }
  sema.PerformPendingInstantiations();
  if (printer != nullptr) printer->EndSourceFile();
  sema.TUScope = previous_scope;
}

}  // namespace carbide::model
