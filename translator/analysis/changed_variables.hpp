// Which variables a statement may change after their initialisation, found syntactically: what
// it assigns or steps by name, and what it lets change otherwise. A use of a variable (or of a
// member or element of it) is only a read where it surely is: its value taken, a copy made, a
// const reference bound, a const member function called, an unevaluated operand; any other use
// may change it. Reports nothing itself.
#pragma once

#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>

#include <set>

namespace carbide::analysis {

struct ChangedVariables {
  // Assigned, incremented or decremented in place, the target named as stored_variable finds it.
  std::set<const clang::VarDecl*> assigned;
  // Changed where no assignment names it: its address taken, a mutable reference bound to it (a
  // reference parameter or member, a range-for's element), a non-const member function called
  // on it, written through ?:, a comma or a cast, or used in any way not known to only read.
  std::set<const clang::VarDecl*> aliased;
  bool changed(const clang::VarDecl* variable) const {
    return assigned.count(variable) || aliased.count(variable);
  }
};

ChangedVariables changed_variables(const clang::Stmt* statement);

// The variable whose storage `expr` is: the variable itself, or a member or element of it
// (`p.n`, `offsets[k]`), through parentheses and conversions that keep the storage, so that a
// write to `expr` changes the variable; null for anything else (`c ? a : b`, `*p`).
const clang::VarDecl* stored_variable(const clang::Expr* expr);

// The variables `statement` uses other than by reading their value, assigning or stepping them
// (or a member or element of them) by name, copying them, or reading them through Carbide's own
// const functions (a view's size(), operator[], grid_stride): the uses changed_variables counts
// as aliasing, any const reference bound or const member function called outside Carbide (the
// const can be cast away), a write inside a lambda that captured it by reference. Such a
// variable may change where no assignment names it; one that is not among them changes only
// where one does.
std::set<const clang::VarDecl*> escaping_variables(const clang::Stmt* statement);

}  // namespace carbide::analysis
