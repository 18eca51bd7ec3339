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

}  // namespace carbide::analysis
