#pragma once

#include "model/module_model.hpp"

#include <clang/AST/ASTContext.h>

namespace carbide::model {

// Follows the kernels' bodies through calls, types and constants to every declaration of the
// main file that the device must see; and so from `variables` (constant tables, which the device
// holds whether or not a kernel reads them).
DeviceCode collect_device_code(clang::ASTContext& context, const std::vector<const clang::FunctionDecl*>& kernels,
                               const std::vector<const clang::VarDecl*>& variables = {});

// The declarations that define `records`: each record and, through its fields, the types and
// constants it names, in source order.
std::vector<const clang::Decl*> collect_type_definitions(clang::ASTContext& context,
                                                         const std::vector<const clang::CXXRecordDecl*>& records);

}  // namespace carbide::model
