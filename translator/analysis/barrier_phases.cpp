#include "analysis/barrier_phases.hpp"

#include "analysis/thread_values.hpp"

#include <clang/AST/ParentMap.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>

#include <algorithm>
#include <numeric>

namespace carbide::analysis {
namespace {

bool is_tile_access(const clang::CXXOperatorCallExpr* call) {
  if (call->getOperator() != clang::OO_Subscript) return false;
  const auto* method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(call->getDirectCallee());
  return method && method->getParent()->getQualifiedNameAsString() == "carbide::shared_array";
}

// How the enclosing expression uses the element: read, written, or both.
void classify_use(const clang::CXXOperatorCallExpr* access, const clang::ParentMap& parents,
                  SharedAccess& result) {
  const clang::Stmt* parent =
      parents.getParentIgnoreParenImpCasts(const_cast<clang::CXXOperatorCallExpr*>(access));
  result.reads = true;
  if (const auto* op = llvm::dyn_cast_or_null<clang::BinaryOperator>(parent)) {
    if (op->isAssignmentOp() && op->getLHS()->IgnoreParenImpCasts() == access) {
      result.writes = true;
      result.reads = op->isCompoundAssignmentOp();
    }
  } else if (const auto* op = llvm::dyn_cast_or_null<clang::UnaryOperator>(parent)) {
    if (op->isIncrementDecrementOp()) result.writes = true;
    if (op->getOpcode() == clang::UO_AddrOf) result.writes = true;  // whatever it is used for
  } else if (const auto* call = llvm::dyn_cast_or_null<clang::CXXOperatorCallExpr>(parent);
             call && call->isAssignmentOp()) {
    if (call->getArg(0)->IgnoreParenImpCasts() == access) {
      result.writes = true;
      result.reads = call->getOperator() != clang::OO_Equal;
    }
  } else if (const auto* declaration = llvm::dyn_cast_or_null<clang::DeclStmt>(parent)) {
    // `float& slot = tile[i];` may write through the reference later.
    for (const clang::Decl* decl : declaration->decls())
      if (const auto* var = llvm::dyn_cast<clang::VarDecl>(decl))
        if (var->getType()->isReferenceType() &&
            !var->getType().getNonReferenceType().isConstQualified())
          result.writes = true;
  } else if (const auto* call = llvm::dyn_cast_or_null<clang::CallExpr>(parent)) {
    // Passed to a function by non-const reference: it may write.
    const clang::FunctionDecl* callee = call->getDirectCallee();
    for (unsigned i = 0; callee && i < call->getNumArgs() && i < callee->getNumParams(); ++i)
      if (call->getArg(i)->IgnoreParenImpCasts() == access &&
          callee->getParamDecl(i)->getType()->isReferenceType() &&
          !callee->getParamDecl(i)->getType().getNonReferenceType().isConstQualified())
        result.writes = true;
  }
}

class Walker {
 public:
  explicit Walker(const clang::FunctionDecl* function)
      : parents_(const_cast<clang::Stmt*>(function->getBody())) {}

  BarrierPhases run(const clang::Stmt* body) {
    next_ = 1;
    parent_of_.assign(1, 0);
    walk(body, 0);
    for (SharedAccess& access : result_.accesses) access.phase = find(access.phase);
    return std::move(result_);
  }

 private:
  int fresh() {
    parent_of_.push_back(next_);
    return next_++;
  }
  int find(int phase) {
    while (parent_of_[phase] != phase) phase = parent_of_[phase] = parent_of_[parent_of_[phase]];
    return phase;
  }
  int unite(int a, int b) {
    a = find(a);
    b = find(b);
    if (a != b) parent_of_[std::max(a, b)] = std::min(a, b);
    return std::min(a, b);
  }

  // Events of one statement without nested control flow, in source order.
  int scan(const clang::Stmt* statement, int phase) {
    if (statement == nullptr) return phase;
    struct Events : clang::RecursiveASTVisitor<Events> {
      std::vector<const clang::Expr*> found;
      bool VisitCallExpr(clang::CallExpr* call) {
        if (callee_name(call) == "carbide::block::sync") found.push_back(call);
        if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call); op && is_tile_access(op))
          found.push_back(call);
        return true;
      }
    } events;
    events.TraverseStmt(const_cast<clang::Stmt*>(statement));
    for (const clang::Expr* event : events.found) {
      if (const auto* access = llvm::dyn_cast<clang::CXXOperatorCallExpr>(event);
          access && is_tile_access(access)) {
        SharedAccess record;
        record.expr = access;
        if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(access->getArg(0)->IgnoreParenImpCasts()))
          record.tile = ref->getDecl();
        record.index = access->getArg(1);
        record.phase = phase;
        classify_use(access, parents_, record);
        result_.accesses.push_back(record);
      } else {
        result_.barriers.push_back(llvm::cast<clang::CallExpr>(event));
        phase = fresh();
      }
    }
    return phase;
  }

  int walk(const clang::Stmt* statement, int phase) {
    if (statement == nullptr) return phase;
    if (const auto* block = llvm::dyn_cast<clang::CompoundStmt>(statement)) {
      for (const clang::Stmt* child : block->body()) phase = walk(child, phase);
      return phase;
    }
    if (const auto* branch = llvm::dyn_cast<clang::IfStmt>(statement)) {
      phase = scan(branch->getInit(), phase);
      phase = scan(branch->getCond(), phase);
      const int after_then = walk(branch->getThen(), phase);
      const int after_else = walk(branch->getElse(), phase);
      return unite(after_then, after_else);
    }
    if (const auto* loop = llvm::dyn_cast<clang::ForStmt>(statement)) {
      phase = walk(loop->getInit(), phase);
      const int start = phase;
      phase = scan(loop->getCond(), phase);
      phase = walk(loop->getBody(), phase);
      phase = scan(loop->getInc(), phase);
      return unite(start, phase);
    }
    if (const auto* loop = llvm::dyn_cast<clang::WhileStmt>(statement)) {
      const int start = phase;
      phase = scan(loop->getCond(), phase);
      return unite(start, walk(loop->getBody(), phase));
    }
    if (const auto* loop = llvm::dyn_cast<clang::DoStmt>(statement)) {
      const int start = phase;
      phase = walk(loop->getBody(), phase);
      return unite(start, scan(loop->getCond(), phase));
    }
    if (const auto* loop = llvm::dyn_cast<clang::CXXForRangeStmt>(statement)) {
      const int start = phase;
      return unite(start, walk(loop->getBody(), phase));
    }
    return scan(statement, phase);
  }

  clang::ParentMap parents_;
  BarrierPhases result_;
  std::vector<int> parent_of_;
  int next_ = 1;
};

}  // namespace

BarrierPhases find_barrier_phases(const clang::FunctionDecl* function) {
  return Walker(function).run(function->getBody());
}

}  // namespace carbide::analysis
