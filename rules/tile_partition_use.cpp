#include "tile_partition_use.hpp"

#include "model/user_code.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMap.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Analysis/CFG.h>
#include <clang/Basic/SourceManager.h>

#include <deque>
#include <set>

namespace carbide::rules {
namespace {

using model::vocabulary::TileHandle;

// `std::move(t).partition(...)` or `std::move(p).unpartition()`: the call and the handle it empties.
struct Transfer {
  const clang::CXXMemberCallExpr* call;
  const clang::VarDecl* handle;
};

const clang::VarDecl* moved_variable(const clang::Expr* object) {
  const auto* move = llvm::dyn_cast<clang::CallExpr>(object->IgnoreParenImpCasts());
  const clang::FunctionDecl* callee = move ? move->getDirectCallee() : nullptr;
  if (callee == nullptr || !callee->isInStdNamespace() || callee->getName() != "move" || move->getNumArgs() != 1)
    return nullptr;
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(move->getArg(0)->IgnoreParenImpCasts());
  const auto* var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var && var->hasLocalStorage() && !var->getType()->isReferenceType() ? var : nullptr;
}

std::optional<Transfer> as_transfer(const clang::Stmt* statement) {
  const auto* call = llvm::dyn_cast_or_null<clang::CXXMemberCallExpr>(statement);
  if (call == nullptr || !model::vocabulary::is_handle_transfer(call->getMethodDecl())) return std::nullopt;
  const clang::VarDecl* handle = moved_variable(call->getImplicitObjectArgument());
  if (handle == nullptr) return std::nullopt;
  return Transfer{call, handle};
}

// `t = ...;`: the handle holds something again.
const clang::DeclRefExpr* reinitialized(const clang::Stmt* statement, const clang::VarDecl* handle) {
  const auto* assign = llvm::dyn_cast_or_null<clang::CXXOperatorCallExpr>(statement);
  if (assign == nullptr || assign->getOperator() != clang::OO_Equal || assign->getNumArgs() != 2) return nullptr;
  const auto* target = llvm::dyn_cast<clang::DeclRefExpr>(assign->getArg(0)->IgnoreParenImpCasts());
  return target && target->getDecl() == handle ? target : nullptr;
}

// The uses that an empty handle allows: asking whether it is empty (assigning to it ends the path).
bool harmless(const clang::DeclRefExpr* ref, const clang::ParentMap& parents) {
  const auto* member = llvm::dyn_cast_or_null<clang::MemberExpr>(parents.getParentIgnoreParenImpCasts(const_cast<clang::DeclRefExpr*>(ref)));
  const auto* method = member ? llvm::dyn_cast<clang::CXXMethodDecl>(member->getMemberDecl()) : nullptr;
  return method && method->getIdentifier() && method->getName() == "empty";
}

// `Tensor<T> t = ...;` (a loop body's declaration, met again): the handle is a new object.
bool declares(const clang::Stmt* statement, const clang::VarDecl* handle) {
  const auto* declaration = llvm::dyn_cast_or_null<clang::DeclStmt>(statement);
  return declaration && llvm::is_contained(declaration->decls(), handle);
}

class UseFinder {
 public:
  UseFinder(const clang::Stmt* body, const clang::CFG& cfg) : parents_(const_cast<clang::Stmt*>(body)), cfg_(cfg) {}

  // The first use of the handle that `transfer` emptied, on a path from it that does not assign to
  // the handle again; null when there is none.
  const clang::DeclRefExpr* first_use(const Transfer& transfer) {
    const clang::CFGBlock* start = nullptr;
    std::size_t after = 0;
    for (const clang::CFGBlock* block : cfg_)
      for (std::size_t i = 0; i < block->size(); ++i)
        if (auto element = (*block)[i].getAs<clang::CFGStmt>(); element && element->getStmt() == transfer.call) {
          start = block;
          after = i + 1;
        }
    if (start == nullptr) return nullptr;
    std::set<const clang::DeclRefExpr*> targets;  // assignments' left sides come before the assignment
    for (const clang::CFGBlock* block : cfg_)
      for (const clang::CFGElement& element : *block)
        if (auto statement = element.getAs<clang::CFGStmt>())
          if (const clang::DeclRefExpr* target = reinitialized(statement->getStmt(), transfer.handle))
            targets.insert(target);
    std::deque<std::pair<const clang::CFGBlock*, std::size_t>> work{{start, after}};
    std::set<const clang::CFGBlock*> seen;
    while (!work.empty()) {
      auto [block, from] = work.front();
      work.pop_front();
      bool path_ends = false;
      for (std::size_t i = from; i < block->size() && !path_ends; ++i) {
        auto element = (*block)[i].getAs<clang::CFGStmt>();
        if (!element) continue;
        const clang::Stmt* statement = element->getStmt();
        if (reinitialized(statement, transfer.handle) || declares(statement, transfer.handle)) path_ends = true;
        else if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(statement);
                 ref && ref->getDecl() == transfer.handle && !targets.count(ref) && !harmless(ref, parents_))
          return ref;
      }
      if (path_ends) continue;
      for (const clang::CFGBlock::AdjacentBlock& next : block->succs())
        if (next.getReachableBlock() && seen.insert(next.getReachableBlock()).second)
          work.push_back({next.getReachableBlock(), 0});
    }
    return nullptr;
  }

 private:
  clang::ParentMap parents_;
  const clang::CFG& cfg_;
};

class TransferCollector : public clang::RecursiveASTVisitor<TransferCollector> {
 public:
  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr* call) {
    if (auto transfer = as_transfer(call)) transfers.push_back(*transfer);
    return true;
  }
  bool shouldVisitLambdaBody() const { return false; }
  std::vector<Transfer> transfers;
};

class HostFunctions : public clang::RecursiveASTVisitor<HostFunctions> {
 public:
  explicit HostFunctions(const clang::SourceManager& sources) : sources_(sources) {}
  bool VisitFunctionDecl(clang::FunctionDecl* function) {
    if (function->hasBody() && function->isThisDeclarationADefinition() && !function->isDependentContext() &&
        sources_.isInMainFile(sources_.getExpansionLoc(function->getLocation())))
      functions.push_back(function);
    return true;
  }
  bool shouldVisitTemplateInstantiations() const { return true; }
  std::vector<const clang::FunctionDecl*> functions;

 private:
  const clang::SourceManager& sources_;
};

// The variable a transfer's result initializes or is assigned to: `part` in
// `auto part = std::move(c).partition(...)`; "p" when there is none.
std::string receiver(const clang::Expr* call, clang::ASTContext& context) {
  clang::DynTypedNode node = clang::DynTypedNode::create(*call);
  for (int depth = 0; depth < 8; ++depth) {
    const clang::DynTypedNodeList parents = context.getParents(node);
    if (parents.empty()) break;
    node = parents[0];
    if (const auto* var = node.get<clang::VarDecl>()) return var->getNameAsString();
    if (const auto* assign = node.get<clang::CXXOperatorCallExpr>())
      if (assign->getOperator() == clang::OO_Equal)
        if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(assign->getArg(0)->IgnoreParenImpCasts()))
          return ref->getDecl()->getNameAsString();
    if (node.get<clang::Stmt>() == nullptr || node.get<clang::CompoundStmt>()) break;
  }
  return "p";
}

std::string handle_kind(const clang::VarDecl* handle) {
  const auto kind = model::vocabulary::tile_handle(handle->getType()->getAsCXXRecordDecl());
  return kind == TileHandle::Partition ? "partition" : "tensor";
}

}  // namespace

void TilePartitionUseRule::check(const RuleContext& context) {
  const clang::SourceManager& sources = context.ast.getSourceManager();
  HostFunctions host(sources);
  host.TraverseDecl(context.ast.getTranslationUnitDecl());
  for (const clang::FunctionDecl* function : host.functions) {
    TransferCollector collector;
    collector.TraverseStmt(function->getBody());
    if (collector.transfers.empty()) continue;
    clang::CFG::BuildOptions options;
    options.AddImplicitDtors = false;
    options.setAllAlwaysAdd();
    const std::unique_ptr<clang::CFG> cfg =
        clang::CFG::buildCFG(function, function->getBody(), &context.ast, options);
    if (!cfg) continue;
    UseFinder finder(function->getBody(), *cfg);
    for (const Transfer& transfer : collector.transfers) {
      const clang::DeclRefExpr* use = finder.first_use(transfer);
      if (use == nullptr) continue;
      const std::string name = transfer.handle->getNameAsString();
      const bool tensor = handle_kind(transfer.handle) == "tensor";
      diag::Finding found = finding(
          this->name(), diag::Severity::Error, use->getLocation(),
          "'" + name + "' is used after it was moved into " + (tensor ? "a partition" : "a tensor by unpartition()") +
              ", so it is empty here; " +
              (tensor ? "get the tensor back first with '" + name + " = std::move(" +
                            receiver(transfer.call, context.ast) + ").unpartition();'"
                      : "partition the tensor again with '" + name + " = std::move(" +
                            receiver(transfer.call, context.ast) + ").partition(shape);'"),
          use->getSourceRange());
      found.notes.push_back({transfer.call->getExprLoc(), "'" + name + "' was moved from here"});
      context.reporter.report(std::move(found));
    }
  }
}

}  // namespace carbide::rules
