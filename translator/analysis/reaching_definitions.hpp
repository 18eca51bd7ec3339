// Which definitions of a local variable may have given a use its value: reaching definitions,
// as worklist dataflow over the function's clang::CFG, back edges included. The solver then
// reads `pin = 1 - pout` at a use where it is the only definition that reaches, instead of
// treating every variable assigned twice as unknown (the double buffer of a Hillis-Steele scan).
//
// A variable whose address is taken, or that is bound to a reference, may change where no
// definition is written: it has no answer.
#pragma once

#include "analysis/control_conditions.hpp"

#include <clang/AST/Expr.h>
#include <llvm/ADT/BitVector.h>

#include <map>
#include <optional>
#include <vector>

namespace carbide::analysis {

class ReachingDefinitions {
 public:
  // `sites`: every statement that defines each local variable (ThreadValues::definition_sites):
  // a declaration's initializer, an assignment or an increment. `control` holds the function's
  // CFG, which must be available.
  ReachingDefinitions(const ControlConditions& control, const clang::Stmt* body,
                      const std::map<const clang::VarDecl*, std::vector<const clang::Stmt*>>& sites);

  // The definition sites that may reach `use`, in no order; none when the variable escapes or
  // the use is not in the CFG.
  std::optional<std::vector<const clang::Stmt*>> reaching(const clang::DeclRefExpr* use) const;

 private:
  void index(const std::map<const clang::VarDecl*, std::vector<const clang::Stmt*>>& sites,
             const clang::Stmt* body);
  void solve();
  // The definition an element of a block makes, if any.
  std::optional<unsigned> defined_at(const clang::Stmt* element) const;
  void transfer(const clang::Stmt* element, llvm::BitVector& live) const;

  const clang::CFG& cfg_;
  std::vector<const clang::Stmt*> definitions_;  // by number
  std::vector<const clang::VarDecl*> defined_;   // the variable each definition defines
  std::map<const clang::Stmt*, unsigned> number_;
  std::map<const clang::VarDecl*, llvm::BitVector> all_of_;  // each variable's definitions
  std::map<const clang::VarDecl*, std::vector<const clang::DeclRefExpr*>> uses_;
  std::map<const clang::DeclRefExpr*, const clang::CFGBlock*> use_blocks_;
  std::vector<const clang::VarDecl*> escaped_;
  std::map<unsigned, llvm::BitVector> entry_;  // by block id: the definitions live on entry
};

}  // namespace carbide::analysis
