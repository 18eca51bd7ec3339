#pragma once

#include "model/module_model.hpp"

#include <clang/AST/ASTContext.h>

namespace carbide::model {

// Reads the kernels of the main file and everything they reach. Never reports: rules judge the
// model, so a malformed kernel is still modelled, with what is wrong recorded in it.
Program build_program(clang::ASTContext& context);

// The namespaces around `decl`, outermost first.
std::vector<const clang::NamespaceDecl*> enclosing_namespaces(const clang::Decl* decl);

}  // namespace carbide::model
