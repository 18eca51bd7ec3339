#include "analysis/control_conditions.hpp"

#include <clang/AST/ParentMap.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Analysis/Analyses/Dominators.h>
#include <clang/Analysis/CFG.h>
#include <clang/Analysis/CFGStmtMap.h>

#include <deque>
#include <set>

namespace carbide::analysis {
namespace {

// The first statement inside `branch` by which threads leave the code that follows it.
const clang::Stmt* first_exit(const clang::Stmt* branch) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::Stmt* found = nullptr;
    bool VisitStmt(clang::Stmt* statement) {
      if (llvm::isa<clang::ReturnStmt, clang::BreakStmt, clang::ContinueStmt, clang::GotoStmt>(statement))
        found = statement;
      return found == nullptr;
    }
    bool TraverseLambdaExpr(clang::LambdaExpr*) { return true; }  // its returns are its own
  } finder;
  finder.TraverseStmt(const_cast<clang::Stmt*>(branch));
  return finder.found;
}

bool is_within(const clang::ParentMap& parents, const clang::Stmt* statement, const clang::Stmt* outer) {
  for (const clang::Stmt* at = statement; at != nullptr; at = parents.getParent(at))
    if (at == outer) return true;
  return false;
}

// A block after a call that does not return (CARBIDE_REQUIRE's failure) keeps that call's
// block as an unreachable predecessor: only the others are ways in.
unsigned reachable_predecessors(const clang::CFGBlock& block) {
  unsigned count = 0;
  for (const clang::CFGBlock::AdjacentBlock& predecessor : block.preds())
    if (predecessor.isReachable()) ++count;
  return count;
}

}  // namespace

ControlConditions::ControlConditions(clang::ASTContext& context, const clang::FunctionDecl* function) {
  clang::Stmt* body = function->getBody();
  if (body == nullptr) return;
  parents_ = std::make_unique<clang::ParentMap>(body);
  clang::CFG::BuildOptions options;
  options.setAllAlwaysAdd();  // every expression an element, so every call maps to its block
  // Every call the function makes is an element, the implicit ones too: constructors and
  // destructors of variables, members, bases and temporaries, and default member initializers.
  options.AddImplicitDtors = true;
  options.AddTemporaryDtors = true;
  options.AddInitializers = true;
  options.AddCXXDefaultInitExprInCtors = true;
  options.AddLifetime = true;
  cfg_ = clang::CFG::buildCFG(function, body, &context, options);
  if (cfg_ == nullptr) return;
  blocks_.reset(clang::CFGStmtMap::Build(cfg_.get(), parents_.get()));
  dependences_ = std::make_unique<clang::ControlDependencyCalculator>(cfg_.get());
  dominators_ = std::make_unique<clang::CFGDomTree>(cfg_.get());
}

ControlConditions::~ControlConditions() = default;

const clang::CFGBlock* ControlConditions::block_of(const clang::Stmt* statement) const {
  return blocks_ ? blocks_->getBlock(statement) : nullptr;
}

bool ControlConditions::reachable(const clang::Stmt* statement) const {
  const clang::CFGBlock* block = block_of(statement);
  if (block == nullptr) return true;
  if (!reachable_blocks_) {
    std::vector<bool> seen(cfg_->getNumBlockIDs(), false);
    std::vector<const clang::CFGBlock*> work = {&cfg_->getEntry()};
    seen[cfg_->getEntry().getBlockID()] = true;
    while (!work.empty()) {
      const clang::CFGBlock* at = work.back();
      work.pop_back();
      for (const clang::CFGBlock* next : at->succs())  // null where the edge was pruned
        if (next != nullptr && !seen[next->getBlockID()]) {
          seen[next->getBlockID()] = true;
          work.push_back(next);
        }
    }
    reachable_blocks_ = std::move(seen);
  }
  return (*reachable_blocks_)[block->getBlockID()];
}

std::vector<ControlCondition> ControlConditions::conditions_for(const clang::Stmt* statement) const {
  std::vector<ControlCondition> conditions;
  if (cfg_ == nullptr) return conditions;
  const clang::CFGBlock* start = blocks_->getBlock(statement);
  if (start == nullptr) return conditions;
  // Breadth first from the statement's block: the nearest branches first.
  std::deque<const clang::CFGBlock*> work = {start};
  std::set<const clang::CFGBlock*> seen = {start};
  std::set<const clang::CFGBlock*> branches;
  while (!work.empty()) {
    const clang::CFGBlock* dependent = work.front();
    work.pop_front();
    for (clang::CFGBlock* branch :
         dependences_->getControlDependencies(const_cast<clang::CFGBlock*>(dependent))) {
      if (seen.insert(branch).second) work.push_back(branch);
      if (!branches.insert(branch).second) continue;
      if (auto condition = condition_of(branch, start, statement)) conditions.push_back(*condition);
    }
  }
  return conditions;
}

std::optional<ControlCondition> ControlConditions::condition_of(const clang::CFGBlock* branch,
                                                                const clang::CFGBlock* target,
                                                                const clang::Stmt* statement) const {
  const auto* expr = llvm::dyn_cast_or_null<clang::Expr>(branch->getTerminatorCondition(false));
  if (expr == nullptr) return std::nullopt;
  ControlCondition condition;
  condition.expr = expr;
  condition.branch = branch->getTerminatorStmt();
  // An outcome is a fact at the statement only when every path there takes it: its edge leads
  // to a block entered from this branch alone, and that block dominates the statement's.
  if (branch->succ_size() == 2 && !llvm::isa<clang::SwitchStmt>(condition.branch)) {
    for (unsigned i = 0; i < 2; ++i) {
      const clang::CFGBlock* successor = branch->succ_begin()[i].getReachableBlock();
      if (successor != nullptr && reachable_predecessors(*successor) == 1 &&
          dominators_->dominates(successor, target))
        condition.holds = i == 0;
    }
  }
  for (const clang::CFGBlock::AdjacentBlock& successor : branch->succs())
    if (const clang::CFGBlock* way = successor.getReachableBlock();
        way != nullptr && way->hasNoReturnElement() && !dominators_->dominates(way, target))
      condition.other_way_stops = true;
  condition.encloses = is_within(*parents_, statement, condition.branch);
  if (!condition.encloses) condition.exit = first_exit(condition.branch);
  return condition;
}

}  // namespace carbide::analysis
