#include "analysis/reaching_definitions.hpp"

#include <clang/AST/ParentMap.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Analysis/CFG.h>

#include <algorithm>
#include <deque>

namespace carbide::analysis {
namespace {

// Reads of a variable, and whether anything else is done with it: its address taken, or a
// reference bound to it.
class UseFinder : public clang::RecursiveASTVisitor<UseFinder> {
 public:
  explicit UseFinder(const clang::Stmt* body) : parents_(const_cast<clang::Stmt*>(body)) {}
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var == nullptr || !var->isLocalVarDecl() || var->getType()->isReferenceType()) return true;
    const clang::Stmt* parent = parents_.getParentIgnoreParens(ref);
    if (const auto* cast = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(parent);
        cast && cast->getCastKind() == clang::CK_LValueToRValue) {
      uses[var].push_back(ref);
    } else if (is_defined_by(parent, ref)) {
      if (reads_before_defining(parent)) uses[var].push_back(ref);  // `pos` of `pos += size` is read too
    } else {
      escaped.push_back(var);
    }
    return true;
  }
  std::map<const clang::VarDecl*, std::vector<const clang::DeclRefExpr*>> uses;
  std::vector<const clang::VarDecl*> escaped;

 private:
  // The target of an assignment or an increment (which the definition sites already name).
  static bool is_defined_by(const clang::Stmt* parent, const clang::DeclRefExpr* ref) {
    if (const auto* op = llvm::dyn_cast_or_null<clang::BinaryOperator>(parent))
      return op->isAssignmentOp() && op->getLHS()->IgnoreParens() == ref;
    if (const auto* op = llvm::dyn_cast_or_null<clang::UnaryOperator>(parent))
      return op->isIncrementDecrementOp();
    return false;
  }
  static bool reads_before_defining(const clang::Stmt* definition) {
    if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(definition)) return op->isCompoundAssignmentOp();
    return llvm::isa<clang::UnaryOperator>(definition);
  }
  clang::ParentMap parents_;
};

const clang::Stmt* element_stmt(const clang::CFGElement& element) {
  if (auto statement = element.getAs<clang::CFGStmt>()) return statement->getStmt();
  return nullptr;
}

}  // namespace

ReachingDefinitions::ReachingDefinitions(
    const ControlConditions& control, const clang::Stmt* body,
    const std::map<const clang::VarDecl*, std::vector<const clang::Stmt*>>& sites)
    : cfg_(*control.cfg()) {
  index(sites, body);
  solve();
  for (const auto& [var, uses] : uses_)
    for (const clang::DeclRefExpr* use : uses) use_blocks_[use] = control.block_of(use);
}

void ReachingDefinitions::index(const std::map<const clang::VarDecl*, std::vector<const clang::Stmt*>>& sites,
                                const clang::Stmt* body) {
  for (const auto& [var, statements] : sites)
    for (const clang::Stmt* site : statements) {
      number_[site] = unsigned(definitions_.size());
      definitions_.push_back(site);
      defined_.push_back(var);
    }
  for (const auto& [var, statements] : sites) {
    llvm::BitVector all(unsigned(definitions_.size()));
    for (const clang::Stmt* site : statements) all.set(number_[site]);
    all_of_[var] = all;
  }
  UseFinder finder(body);
  finder.TraverseStmt(const_cast<clang::Stmt*>(body));
  uses_ = std::move(finder.uses);
  escaped_ = std::move(finder.escaped);
}

// A declaration's definition is its initializer, which the CFG evaluates just before the
// (single-variable) DeclStmt it lists; assignments and increments are their own elements.
std::optional<unsigned> ReachingDefinitions::defined_at(const clang::Stmt* element) const {
  if (const auto* declaration = llvm::dyn_cast<clang::DeclStmt>(element)) {
    for (const clang::Decl* decl : declaration->decls())
      if (const auto* var = llvm::dyn_cast<clang::VarDecl>(decl); var && var->getInit())
        if (auto found = number_.find(var->getInit()); found != number_.end()) return found->second;
    return std::nullopt;
  }
  if (llvm::isa<clang::BinaryOperator, clang::UnaryOperator>(element))
    if (auto found = number_.find(element); found != number_.end()) return found->second;
  return std::nullopt;
}

void ReachingDefinitions::transfer(const clang::Stmt* element, llvm::BitVector& live) const {
  const auto definition = defined_at(element);
  if (!definition) return;
  live.reset(all_of_.at(defined_[*definition]));
  live.set(*definition);
}

void ReachingDefinitions::solve() {
  const unsigned count = unsigned(definitions_.size());
  std::map<unsigned, llvm::BitVector> exit;
  std::deque<const clang::CFGBlock*> work;
  for (const clang::CFGBlock* block : cfg_) {
    entry_[block->getBlockID()] = llvm::BitVector(count);
    exit[block->getBlockID()] = llvm::BitVector(count);
    work.push_back(block);
  }
  while (!work.empty()) {
    const clang::CFGBlock* block = work.front();
    work.pop_front();
    llvm::BitVector live(count);
    for (const clang::CFGBlock::AdjacentBlock& predecessor : block->preds())
      if (const clang::CFGBlock* from = predecessor.getReachableBlock()) live |= exit[from->getBlockID()];
    entry_[block->getBlockID()] = live;
    for (const clang::CFGElement& element : *block)
      if (const clang::Stmt* statement = element_stmt(element)) transfer(statement, live);
    if (live == exit[block->getBlockID()]) continue;
    exit[block->getBlockID()] = live;
    for (const clang::CFGBlock::AdjacentBlock& successor : block->succs())
      if (const clang::CFGBlock* to = successor.getReachableBlock())
        if (std::find(work.begin(), work.end(), to) == work.end()) work.push_back(to);
  }
}

std::optional<std::vector<const clang::Stmt*>> ReachingDefinitions::reaching(const clang::DeclRefExpr* use) const {
  const auto* var = llvm::dyn_cast<clang::VarDecl>(use->getDecl());
  const auto block = use_blocks_.find(use);
  if (var == nullptr || block == use_blocks_.end() || block->second == nullptr ||
      std::find(escaped_.begin(), escaped_.end(), var) != escaped_.end() || !all_of_.count(var))
    return std::nullopt;
  llvm::BitVector live = entry_.at(block->second->getBlockID());
  bool found = false;
  for (const clang::CFGElement& element : *block->second) {
    const clang::Stmt* statement = element_stmt(element);
    if (statement == use) {
      found = true;
      break;
    }
    if (statement) transfer(statement, live);
  }
  if (!found) return std::nullopt;
  live &= all_of_.at(var);
  std::vector<const clang::Stmt*> sites;
  for (unsigned definition : live.set_bits()) sites.push_back(definitions_[definition]);
  return sites;
}

}  // namespace carbide::analysis
