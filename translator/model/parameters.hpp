#pragma once

#include "model/module_model.hpp"

#include <clang/AST/ASTContext.h>

namespace carbide::model {

// Sorts a kernel parameter into its ownership kind (or says why it has none).
Parameter classify_parameter(const clang::ParmVarDecl* param, clang::ASTContext& context);

// The fully qualified spelling of a type, as generated code must write it.
std::string spell_type(clang::QualType type, const clang::ASTContext& context);

}  // namespace carbide::model
