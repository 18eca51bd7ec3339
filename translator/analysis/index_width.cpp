#include "analysis/index_width.hpp"

#include "model/device_reachability.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <set>

namespace carbide::analysis {
namespace {

bool asks_for_32_bits(const model::Kernel& kernel) {
  return !kernel.is_tile && kernel.has_valid_contract() && kernel.contract->parsed->index_bits == 32;
}

std::vector<const clang::CallExpr*> witness_sources_in(const clang::FunctionDecl* function) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    std::vector<const clang::CallExpr*> found;
    bool VisitCallExpr(clang::CallExpr* call) {
      if (model::vocabulary::narrow_witness_source(call)) found.push_back(call);
      return true;
    }
  } finder;
  const clang::FunctionDecl* definition = nullptr;
  if (function->hasBody(definition)) finder.TraverseStmt(definition->getBody());
  return finder.found;
}

}  // namespace

std::vector<const clang::CallExpr*> narrow_witness_sources(clang::ASTContext& context,
                                                           const model::Program& program) {
  std::vector<const clang::FunctionDecl*> narrow_kernels, wide_kernels;
  for (const model::Module& module : program.modules)
    for (const model::Kernel& kernel : module.kernels)
      if (!kernel.is_tile) (asks_for_32_bits(kernel) ? narrow_kernels : wide_kernels).push_back(kernel.decl);
  if (narrow_kernels.empty()) return {};
  // What every 64-bit kernel reaches is exactly what the .cu copies for them, so nothing they
  // call can be missed.
  const model::DeviceCode wide = model::collect_device_code(context, wide_kernels);
  const std::set<const clang::FunctionDecl*> reached_wide(wide.functions.begin(), wide.functions.end());
  std::vector<const clang::CallExpr*> sources;
  for (const clang::FunctionDecl* function : model::collect_device_code(context, narrow_kernels).functions) {
    if (reached_wide.count(function) || function->isTemplated() || function->isTemplateInstantiation() ||
        llvm::isa<clang::CXXMethodDecl>(function))
      continue;
    for (const clang::CallExpr* call : witness_sources_in(function)) sources.push_back(call);
  }
  return sources;
}

}  // namespace carbide::analysis
