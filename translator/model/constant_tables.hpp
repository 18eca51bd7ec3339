// CARBIDE_CONSTANT tables: arrays (or single values) in the device's constant memory, declared at a
// kernel namespace's scope, read by its kernels and set by host code through the module
// (`module.set_taps(stream, values)`). The model finds them once; the constant-table rule reports
// the ones that cannot be tables, and the code generators place the rest.
#pragma once

#include "model/module_model.hpp"

#include <clang/AST/ASTContext.h>

namespace carbide::model {

// Every CARBIDE_CONSTANT declaration of the translated file, in source order, with why it cannot
// be a table where it cannot (ConstantTable::problem). `modules` are the file's kernel namespaces:
// a table outside them has no module to set it.
std::vector<ConstantTable> find_constant_tables(clang::ASTContext& context, const std::vector<Module>& modules);

// The tables a module sets, in the order its load() hands them to the runtime.
std::vector<const ConstantTable*> constant_tables_of(const Program& program, const Module& module);

}  // namespace carbide::model
