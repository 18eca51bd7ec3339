#include "analysis/device_analysis.hpp"

#include "model/vocabulary.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>

namespace carbide::analysis {
namespace {

constexpr int kMaxProvenanceDepth = 8;

const clang::VarDecl* unsafe_block_variable(const clang::IfStmt* statement) {
  const auto* init = llvm::dyn_cast_or_null<clang::DeclStmt>(statement->getInit());
  if (init == nullptr || !init->isSingleDecl()) return nullptr;
  const auto* var = llvm::dyn_cast<clang::VarDecl>(init->getSingleDecl());
  if (var == nullptr) return nullptr;
  if (!model::vocabulary::is_unsafe_block(var->getType()->getAsCXXRecordDecl())) return nullptr;
  return var;
}

std::string reason_of(const clang::VarDecl* var) {
  const clang::Expr* init = var->getInit();
  if (init == nullptr) return "";
  const clang::StringLiteral* literal = nullptr;
  if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(init->IgnoreImplicit())) {
    if (list->getNumInits() > 0)
      literal = llvm::dyn_cast<clang::StringLiteral>(list->getInit(0)->IgnoreImpCasts());
  }
  return literal ? literal->getString().str() : "";
}

class Collector : public clang::RecursiveASTVisitor<Collector> {
 public:
  Collector(const clang::SourceManager& sources, const clang::FunctionDecl* function,
            std::vector<UnsafeBlock>& blocks,
            std::map<const clang::VarDecl*, std::vector<const clang::Expr*>>& sources_of)
      : sources_(sources), function_(function), blocks_(blocks), sources_of_(sources_of) {}

  bool VisitIfStmt(clang::IfStmt* statement) {
    if (const clang::VarDecl* var = unsafe_block_variable(statement))
      blocks_.push_back({statement, sources_.getExpansionLoc(statement->getBeginLoc()),
                         reason_of(var), function_});
    return true;
  }
  bool VisitVarDecl(clang::VarDecl* var) {
    if (var->getType()->isPointerType() && var->getInit() != nullptr)
      sources_of_[var].push_back(var->getInit());
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->getOpcode() != clang::BO_Assign) return true;
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(op->getLHS()->IgnoreParens()))
      if (const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl()))
        if (var->getType()->isPointerType()) sources_of_[var].push_back(op->getRHS());
    return true;
  }

 private:
  const clang::SourceManager& sources_;
  const clang::FunctionDecl* function_;
  std::vector<UnsafeBlock>& blocks_;
  std::map<const clang::VarDecl*, std::vector<const clang::Expr*>>& sources_of_;
};

// Two origins of one pointer agree when they are the same, or both view elements (from two
// get_mut calls: still one element per thread).
Provenance combine(const Provenance& a, const Provenance& b) {
  if (a.origin == b.origin && (a.get_mut == b.get_mut || a.origin == PointerOrigin::ViewElement))
    return a;
  return {};
}

Provenance displaced(const Provenance& from) {
  if (from.origin == PointerOrigin::ViewElement || from.origin == PointerOrigin::DisplacedViewElement)
    return {PointerOrigin::DisplacedViewElement, from.get_mut};
  return {};
}

bool is_thread_local_storage(const clang::ValueDecl* decl) {
  const auto* var = llvm::dyn_cast<clang::VarDecl>(decl);
  return var != nullptr && var->isLocalVarDeclOrParm() && !var->isStaticLocal() &&
         !var->getType()->isReferenceType() && !var->getType()->isPointerType();
}

}  // namespace

bool is_witness_type(clang::QualType type) {
  type = type.getNonReferenceType();
  while (type->isPointerType()) type = type->getPointeeType();
  return model::vocabulary::witness_kind(type->getAsCXXRecordDecl()).has_value();
}

bool is_disjoint_view(const clang::CXXRecordDecl* record) {
  const auto kind = model::vocabulary::view_kind(record);
  return kind == model::vocabulary::View::Exclusive || kind == model::vocabulary::View::Exclusive2D;
}

const clang::CXXMemberCallExpr* as_get_mut(const clang::Expr* expr) {
  const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr->IgnoreParenImpCasts());
  if (call == nullptr || call->getMethodDecl() == nullptr) return nullptr;
  // get_mut_block and get_mut_warp_leader: the block's or the warp's one element, to its first
  // thread (the leader forms).
  if (model::vocabulary::leader_claim(call->getMethodDecl())) return call;
  const llvm::StringRef name = call->getMethodDecl()->getName();
  if (name != "get_mut") return nullptr;
  return is_disjoint_view(call->getMethodDecl()->getParent()) ? call : nullptr;
}

DeviceAnalysis::DeviceAnalysis(clang::ASTContext& context, const model::Program& program)
    : context_(context), program_(program), view_claims_(context) {
  for (const clang::FunctionDecl* function : program.device.functions) {
    // A template is analysed in each of its instantiations, where every type is known.
    if (const clang::FunctionTemplateDecl* pattern = function->getDescribedFunctionTemplate()) {
      for (const clang::FunctionDecl* instance : pattern->specializations())
        if (instance->hasBody()) definitions_.push_back(instance);
      continue;
    }
    // A member of a class template is dependent as written: its instances are checked instead.
    if (function->isDependentContext()) continue;
    const clang::FunctionDecl* definition = nullptr;
    if (function->hasBody(definition)) definitions_.push_back(definition);
  }
  for (const clang::FunctionDecl* instance : program.device.member_instances)
    if (instance->hasBody() && std::find(definitions_.begin(), definitions_.end(), instance) == definitions_.end())
      definitions_.push_back(instance);
  for (const clang::FunctionDecl* definition : definitions_)
    Collector(context.getSourceManager(), definition, unsafe_blocks_, pointer_sources_)
        .TraverseStmt(definition->getBody());
  for (const model::Module& module : program.modules)
    for (const model::Kernel& kernel : module.kernels) {
      if (kernel.is_tile) continue;
      BlockShape shape;
      if (kernel.has_valid_contract())
        for (int axis = 0; axis < 3; ++axis) shape.extent[axis] = kernel.contract->parsed->block[axis];
      add_calling_shape(kernel.decl, shape);
    }
  // Instances share their pattern's CARBIDE_UNSAFE blocks.
  std::sort(unsafe_blocks_.begin(), unsafe_blocks_.end(),
            [&](const UnsafeBlock& a, const UnsafeBlock& b) {
              return context.getSourceManager().isBeforeInTranslationUnit(a.location, b.location);
            });
  unsafe_blocks_.erase(std::unique(unsafe_blocks_.begin(), unsafe_blocks_.end(),
                                   [](const UnsafeBlock& a, const UnsafeBlock& b) {
                                     return a.location == b.location;
                                   }),
                       unsafe_blocks_.end());
}

namespace {

// The functions other than Carbide's that `function`'s definition calls.
std::vector<const clang::FunctionDecl*> helpers_called(const clang::FunctionDecl* function) {
  const clang::FunctionDecl* definition = nullptr;
  if (!function->hasBody(definition)) return {};
  struct Calls : clang::RecursiveASTVisitor<Calls> {
    std::vector<const clang::FunctionDecl*> callees;
    bool VisitCallExpr(clang::CallExpr* call) {
      if (const clang::FunctionDecl* callee = call->getDirectCallee())
        if (!model::vocabulary::is_carbide(callee)) callees.push_back(callee);
      return true;
    }
  } calls;
  calls.TraverseStmt(definition->getBody());
  return calls.callees;
}

}  // namespace

// Each kernel's block reaches the helpers it calls, directly or through other helpers, however
// deep: a helper left without it would be analysed in no shape at all. Each function is followed
// once per shape, so the walk ends on the finite call graph, even a recursive one.
void DeviceAnalysis::add_calling_shape(const clang::FunctionDecl* kernel, const BlockShape& shape) {
  std::vector<const clang::FunctionDecl*> pending{kernel};
  while (!pending.empty()) {
    const clang::FunctionDecl* function = pending.back();
    pending.pop_back();
    std::vector<BlockShape>& shapes = calling_shapes_[function->getCanonicalDecl()];
    if (std::find(shapes.begin(), shapes.end(), shape) != shapes.end()) continue;
    shapes.push_back(shape);
    const std::vector<const clang::FunctionDecl*> callees = helpers_called(function);
    pending.insert(pending.end(), callees.begin(), callees.end());
  }
}

const std::vector<BlockShape>& DeviceAnalysis::calling_shapes(const clang::FunctionDecl* function) const {
  static const std::vector<BlockShape> unknown{BlockShape{}};
  const auto found = calling_shapes_.find(function->getCanonicalDecl());
  return found == calling_shapes_.end() ? unknown : found->second;
}

const ThreadValues& DeviceAnalysis::thread_values(const clang::FunctionDecl* function, const BlockShape& shape) const {
  const ShapeKey key{function, {shape.extent[0], shape.extent[1], shape.extent[2]}};
  std::unique_ptr<ThreadValues>& values = thread_values_[key];
  if (!values) values = std::make_unique<ThreadValues>(context_, function, shape);
  return *values;
}

const BarrierPhases& DeviceAnalysis::barrier_phases(const clang::FunctionDecl* function, const BlockShape& shape) const {
  const ShapeKey key{function, {shape.extent[0], shape.extent[1], shape.extent[2]}};
  auto found = barrier_phases_.find(key);
  if (found == barrier_phases_.end())
    found = barrier_phases_.emplace(key, find_barrier_phases(thread_values(function, shape))).first;
  return found->second;
}

bool DeviceAnalysis::in_unsafe_block(const clang::Stmt* statement) const {
  const clang::SourceManager& sources = context_.getSourceManager();
  const clang::SourceLocation at = sources.getExpansionLoc(statement->getBeginLoc());
  for (const UnsafeBlock& block : unsafe_blocks_) {
    const clang::Stmt* body = block.statement->getThen();
    const clang::SourceLocation begin = sources.getExpansionLoc(body->getBeginLoc());
    const clang::SourceLocation end = sources.getExpansionLoc(body->getEndLoc());
    if (!sources.isBeforeInTranslationUnit(at, begin) && !sources.isBeforeInTranslationUnit(end, at))
      return true;
  }
  return false;
}

Provenance DeviceAnalysis::provenance(const clang::Expr* pointer) const {
  return provenance(pointer, 0);
}

Provenance DeviceAnalysis::provenance(const clang::Expr* pointer, int depth) const {
  if (depth > kMaxProvenanceDepth) return {};
  const clang::Expr* expr = pointer->IgnoreParenImpCasts();
  if (const auto* call = as_get_mut(expr)) return {PointerOrigin::ViewElement, call};
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(expr)) {
    if (op->getOpcode() != clang::UO_AddrOf) return {};
    const clang::Expr* target = op->getSubExpr()->IgnoreParenImpCasts();
    // Down members and elements of arrays to the object that holds them (`&pair.a`, `&local[2]`).
    for (;;) {
      if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(target)) {
        // Through a pointer, or a member that is a reference: the storage is wherever it points.
        if (member->isArrow() || member->getMemberDecl()->getType()->isReferenceType()) return {};
        target = member->getBase()->IgnoreParenImpCasts();
      } else if (const auto* element = llvm::dyn_cast<clang::ArraySubscriptExpr>(target);
                 element && element->getBase()->IgnoreParenImpCasts()->getType()->isArrayType()) {
        target = element->getBase()->IgnoreParenImpCasts();
      } else {
        break;
      }
    }
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(target))
      if (is_thread_local_storage(ref->getDecl())) return {PointerOrigin::Local, nullptr};
    return {};
  }
  if (const auto* conditional = llvm::dyn_cast<clang::ConditionalOperator>(expr)) {
    return combine(provenance(conditional->getTrueExpr(), depth + 1),
                   provenance(conditional->getFalseExpr(), depth + 1));
  }
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(expr); op && op->isAdditiveOp()) {
    for (const clang::Expr* side : {op->getLHS(), op->getRHS()})
      if (side->getType()->isPointerType()) return displaced(provenance(side, depth + 1));
    return {};
  }
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    // A local array decays to a pointer to this thread's storage.
    if (ref->getType()->isArrayType() && is_thread_local_storage(ref->getDecl()))
      return {PointerOrigin::Local, nullptr};
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    auto it = var ? pointer_sources_.find(var) : pointer_sources_.end();
    if (it == pointer_sources_.end() || llvm::isa<clang::ParmVarDecl>(var)) return {};
    std::optional<Provenance> result;
    for (const clang::Expr* source : it->second) {
      if (llvm::isa<clang::CXXNullPtrLiteralExpr>(source->IgnoreParenImpCasts())) continue;
      const Provenance next = provenance(source, depth + 1);
      result = result ? combine(*result, next) : next;
    }
    return result.value_or(Provenance{});
  }
  return {};
}

}  // namespace carbide::analysis
