// Facts about device code that several rules stand on, computed once per file: where the
// CARBIDE_UNSAFE blocks are, and where each raw pointer came from. Like Clang's analyses, this
// knows nothing of diagnostics; rules ask it questions and decide what to report.
#pragma once

#include "analysis/barrier_phases.hpp"
#include "analysis/collective_sites.hpp"
#include "analysis/thread_values.hpp"
#include "analysis/view_claims.hpp"
#include "model/module_model.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace carbide::analysis {

struct UnsafeBlock {
  const clang::IfStmt* statement = nullptr;
  clang::SourceLocation location;  // the CARBIDE_UNSAFE token
  std::string reason;
  const clang::FunctionDecl* function = nullptr;
};

enum class PointerOrigin {
  ViewElement,  // the one element get_mut gave this thread
  // Moved away from that element by pointer arithmetic: carbide-disjoint-foreign-write reports
  // the move, so a use of the result is not reported again as an unknown pointer.
  DisplacedViewElement,
  Local,        // the address of this thread's own local storage
  Unknown,      // anything else: a parameter, data(), a cast, a mix of origins
};

struct Provenance {
  PointerOrigin origin = PointerOrigin::Unknown;
  const clang::CXXMemberCallExpr* get_mut = nullptr;  // for (Displaced)ViewElement: the call
};

class DeviceAnalysis {
 public:
  DeviceAnalysis(clang::ASTContext& context, const model::Program& program);

  const std::vector<UnsafeBlock>& unsafe_blocks() const { return unsafe_blocks_; }
  bool in_unsafe_block(const clang::Stmt* statement) const;
  Provenance provenance(const clang::Expr* pointer) const;

  // The device functions' definitions, in source order.
  const std::vector<const clang::FunctionDecl*>& definitions() const { return definitions_; }

  // The blocks a function runs in: its own contract's for a kernel; for a helper, each distinct
  // block of the kernels that reach it through any depth of calls, so that it is analysed once
  // per calling contract (one unknown shape when no kernel with a contract reaches it).
  const std::vector<BlockShape>& calling_shapes(const clang::FunctionDecl* function) const;

  // Uniformity and affine forms of a device function's values in one of its calling shapes,
  // built once for every rule that asks.
  const ThreadValues& thread_values(const clang::FunctionDecl* function, const BlockShape& shape) const;

  // A device function's barrier phases and shared accesses in one of its calling shapes, found
  // once for the shared-race rule and for codegen's proven subscripts.
  const BarrierPhases& barrier_phases(const clang::FunctionDecl* function, const BlockShape& shape) const;

  // Where each device function reaches a barrier or a warp collective, helpers followed.
  const CollectiveSites& collective_sites() const { return collective_sites_; }

  // The ownership forms each device function claims of its views, found once per function for
  // the rules and the launch checks.
  ViewClaimFinder& view_claims() const { return view_claims_; }

 private:
  Provenance provenance(const clang::Expr* pointer, int depth) const;

  clang::ASTContext& context_;
  const model::Program& program_;
  std::vector<const clang::FunctionDecl*> definitions_;
  std::vector<UnsafeBlock> unsafe_blocks_;
  // Every value a local pointer variable is given: its initializer and each assignment.
  std::map<const clang::VarDecl*, std::vector<const clang::Expr*>> pointer_sources_;
  void add_calling_shape(const clang::FunctionDecl* kernel, const BlockShape& shape);

  std::map<const clang::FunctionDecl*, std::vector<BlockShape>> calling_shapes_;  // by canonical decl
  using ShapeKey = std::pair<const clang::FunctionDecl*, std::array<std::uint64_t, 3>>;
  mutable std::map<ShapeKey, std::unique_ptr<ThreadValues>> thread_values_;
  mutable std::map<ShapeKey, BarrierPhases> barrier_phases_;
  CollectiveSites collective_sites_;
  mutable ViewClaimFinder view_claims_;
};

// True for a thread-index witness type (carbide::thread::*_witness), seen through references,
// pointers and const.
bool is_witness_type(clang::QualType type);

// carbide::disjoint_span<T> or carbide::disjoint_span2d<T>.
bool is_disjoint_view(const clang::CXXRecordDecl* record);

// `view` in `view.get_mut(...)` when `call` is a disjoint view's get_mut.
const clang::CXXMemberCallExpr* as_get_mut(const clang::Expr* expr);

}  // namespace carbide::analysis
