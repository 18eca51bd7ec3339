#include "analysis/proven_subscripts.hpp"

#include "analysis/index_bounds.hpp"
#include "analysis/shared_accesses.hpp"

#include <clang/AST/DeclTemplate.h>

#include <map>
#include <set>

namespace carbide::analysis {
namespace {

// N of a `carbide::shared_array<T, N>` handle; empty for the dynamic array.
std::optional<std::uint64_t> static_extent(const clang::Expr* handle) {
  const auto* specialization = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
      handle->getType()->getAsCXXRecordDecl());
  if (specialization == nullptr || specialization->getTemplateArgs().size() != 2 || is_dynamic_handle(handle))
    return std::nullopt;
  const clang::TemplateArgument& extent = specialization->getTemplateArgs()[1];
  if (extent.getKind() != clang::TemplateArgument::Integral) return std::nullopt;
  return extent.getAsIntegral().getZExtValue();
}

// The text an index is written in: an instantiation's index shares its template's location, so
// this is what the instantiations of one template agree on.
clang::SourceLocation written_at(const clang::Expr* index) { return index->getBeginLoc(); }

// Where an index was proven, counted in (instantiation, calling shape) contexts of the function
// or template that holds it.
struct Proof {
  const clang::Expr* index = nullptr;
  const clang::Decl* owner = nullptr;
  std::size_t contexts = 0;
};

const clang::Decl* owner_of(const clang::FunctionDecl* function) {
  if (const clang::FunctionTemplateDecl* pattern = function->getPrimaryTemplate()) return pattern;
  return function;
}

}  // namespace

std::vector<const clang::Expr*> proven_shared_indexes(const DeviceAnalysis& device) {
  std::map<const clang::Decl*, std::size_t> contexts;  // each owner's (instantiation, shape) pairs
  std::map<clang::SourceLocation, Proof> proofs;
  for (const clang::FunctionDecl* function : device.definitions()) {
    // A member of a class template or a generic lambda: its instantiations are not all listed.
    if (function->isTemplated() || (function->isTemplateInstantiation() && !function->getPrimaryTemplate()))
      continue;
    const clang::Decl* owner = owner_of(function);
    const std::vector<BlockShape>& shapes = device.calling_shapes(function);
    for (const BlockShape& shape : shapes) {
      ++contexts[owner];
      const ThreadValues& values = device.thread_values(function, shape);
      const IndexBounds bounds(values);
      std::set<clang::SourceLocation> proven_here;
      for (const SharedAccess& access : device.barrier_phases(function, shape).accesses) {
        if (access.in_helper != nullptr || access.index == nullptr) continue;
        const auto extent = static_extent(tile_handle(access.expr));
        if (!extent) continue;
        // An access no path reaches here (a constant-false branch of a template instance) cannot
        // fault here.
        if (values.control().reachable(access.expr)) {
          const auto range = bounds.subscript_range(access.index, access.expr);
          if (!range || range->low < 0 || range->high >= __int128(*extent)) continue;
        }
        const clang::Expr* written = tile_index(access.expr);
        if (!proven_here.insert(written_at(written)).second) continue;
        Proof& proof = proofs[written_at(written)];
        proof.index = written;
        proof.owner = owner;
        ++proof.contexts;
      }
    }
  }
  std::vector<const clang::Expr*> proven;
  for (const auto& [location, proof] : proofs)
    if (proof.contexts == contexts[proof.owner]) proven.push_back(proof.index);
  return proven;
}

}  // namespace carbide::analysis
