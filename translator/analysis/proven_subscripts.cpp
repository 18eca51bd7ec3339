#include "analysis/proven_subscripts.hpp"

#include "analysis/index_bounds.hpp"

#include <clang/AST/DeclTemplate.h>

#include <map>

namespace carbide::analysis {
namespace {

// N of a `carbide::shared_array<T, N>` handle; empty for the dynamic array.
std::optional<std::uint64_t> static_extent(const clang::Expr* handle) {
  const auto* specialization = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
      handle->getType()->getAsCXXRecordDecl());
  if (specialization == nullptr || specialization->getTemplateArgs().size() != 2) return std::nullopt;
  const clang::TemplateArgument& extent = specialization->getTemplateArgs()[1];
  if (extent.getKind() != clang::TemplateArgument::Integral || extent.getAsIntegral().isAllOnes())
    return std::nullopt;
  return extent.getAsIntegral().getZExtValue();
}

}  // namespace

// A subscript is emitted unchecked when it is in range in every block its function runs in.
std::vector<const clang::CXXOperatorCallExpr*> proven_shared_subscripts(const DeviceAnalysis& device) {
  std::vector<const clang::CXXOperatorCallExpr*> proven;
  for (const clang::FunctionDecl* function : device.definitions()) {
    if (function->isTemplated() || function->isTemplateInstantiation()) continue;
    std::map<const clang::CXXOperatorCallExpr*, std::size_t> in_range;  // shapes it was proven in
    const std::vector<BlockShape>& shapes = device.calling_shapes(function);
    for (const BlockShape& shape : shapes) {
      const IndexBounds bounds(device.thread_values(function, shape));
      for (const SharedAccess& access : device.barrier_phases(function, shape).accesses) {
        const auto* subscript = llvm::dyn_cast<clang::CXXOperatorCallExpr>(access.expr);
        if (subscript == nullptr || access.in_helper != nullptr) continue;
        const auto extent = static_extent(subscript->getArg(0));
        if (!extent) continue;
        const auto range = bounds.subscript_range(access.index, subscript);
        if (range && range->low >= 0 && range->high < __int128(*extent)) ++in_range[subscript];
      }
    }
    for (const auto& [subscript, count] : in_range)
      if (count == shapes.size()) proven.push_back(subscript);
  }
  return proven;
}

}  // namespace carbide::analysis
