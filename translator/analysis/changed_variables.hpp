// Which variables a statement may change after their initialisation, found syntactically: what
// it assigns or steps, and what it lets change through an alias (address taken, bound to a
// mutable reference, passed to a mutable reference parameter). Reports nothing itself.
#pragma once

#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>

#include <set>

namespace carbide::analysis {

struct ChangedVariables {
  std::set<const clang::VarDecl*> assigned;  // assigned, incremented or decremented in place
  std::set<const clang::VarDecl*> aliased;   // reachable through a pointer or mutable reference
  bool changed(const clang::VarDecl* variable) const {
    return assigned.count(variable) || aliased.count(variable);
  }
};

ChangedVariables changed_variables(const clang::Stmt* statement);

// The variable whose storage `expr` is: the variable itself, or a member or element of it
// (`p.n`, `offsets[k]`), so that a write to `expr` changes the variable; null for anything else.
const clang::VarDecl* stored_variable(const clang::Expr* expr);

// The variables `statement` uses other than by reading their value, assigning or stepping them
// (or a member or element of them) by name, copying them, or reading them through Carbide's own
// const functions (a view's size(), operator[], grid_stride): an address taken, any reference
// bound (a const one can be cast back), a write inside a lambda that captured it by reference,
// anything not recognised. Such a variable may change where no assignment names it; one that is
// not among them changes only where one does.
std::set<const clang::VarDecl*> escaping_variables(const clang::Stmt* statement);

}  // namespace carbide::analysis
