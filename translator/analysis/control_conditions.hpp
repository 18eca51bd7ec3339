// Which branch outcomes decide whether a statement runs, read off the function's clang::CFG.
//
// A statement depends on a branch when one outcome of the branch may skip it and another always
// leads to it: control dependence (Ferrante, Ottenstein and Warren), which Clang computes from
// post-dominators (ControlDependencyCalculator). Taken transitively, that is every enclosing
// `if`, loop test, `switch`, `?:`, `&&` and `||`, and also every test before a `return`,
// `break`, `continue` or `goto` that lets some threads leave before the statement, whatever the
// shape of the code around it: the CFG has the edges, so no statement kind is a special case.
//
// Rules ask it where a barrier needs the whole block; the index analyses ask it which facts hold
// at an access (a condition's outcome on the way there).
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace clang {
class CFG;
class CFGBlock;
class CFGStmtMap;
class ControlDependencyCalculator;
class ParentMap;
template <bool IsPostDom>
class CFGDominatorTreeImpl;
}  // namespace clang

namespace carbide::analysis {

struct ControlCondition {
  const clang::Expr* expr = nullptr;  // what is tested
  // The outcome on the way to the statement; none for a switch, whose outcomes are many.
  std::optional<bool> holds;
  const clang::Stmt* branch = nullptr;  // the statement that branches: if, loop, switch, &&, ?:
  // When the branch does not enclose the statement, the threads that take the other way leave
  // before it: the `return`, `break`, `continue` or `goto` they leave by, where one is written.
  const clang::Stmt* exit = nullptr;
  bool encloses = true;  // the statement is written inside the branch
  // The other way ends at once in a call that does not return (CARBIDE_REQUIRE's failure,
  // which stops the whole launch): no thread goes on past the statement by that way.
  bool other_way_stops = false;
};

class ControlConditions {
 public:
  ControlConditions(clang::ASTContext& context, const clang::FunctionDecl* function);
  ~ControlConditions();
  ControlConditions(const ControlConditions&) = delete;
  ControlConditions& operator=(const ControlConditions&) = delete;

  // False when Clang could not build the function's CFG; then no statement has conditions, and
  // rules that need them must say they cannot check the function.
  bool available() const { return cfg_ != nullptr; }

  // The function's CFG (null when unavailable) and the block a statement is in, for the
  // analyses that run their own dataflow on it.
  const clang::CFG* cfg() const { return cfg_.get(); }
  const clang::CFGBlock* block_of(const clang::Stmt* statement) const;

  // The conditions `statement` runs under, innermost first, each once.
  std::vector<ControlCondition> conditions_for(const clang::Stmt* statement) const;

  // Whether some path from the function's entry reaches the statement. Clang's CFG prunes the
  // edge of a branch whose condition is a constant, so the other side of a template's
  // `if (B >= 512)` in an instance with B = 128 is unreachable there. A statement outside the
  // CFG counts as reachable.
  bool reachable(const clang::Stmt* statement) const;

 private:
  std::optional<ControlCondition> condition_of(const clang::CFGBlock* branch,
                                               const clang::CFGBlock* target,
                                               const clang::Stmt* statement) const;

  std::unique_ptr<clang::ParentMap> parents_;
  std::unique_ptr<clang::CFG> cfg_;
  std::unique_ptr<clang::CFGStmtMap> blocks_;
  std::unique_ptr<clang::ControlDependencyCalculator> dependences_;
  std::unique_ptr<clang::CFGDominatorTreeImpl<false>> dominators_;
  mutable std::optional<std::vector<bool>> reachable_blocks_;  // by block ID, found on first ask
};

}  // namespace carbide::analysis
