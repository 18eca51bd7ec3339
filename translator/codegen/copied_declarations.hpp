// The user's declarations copied into generated files as the source spells them: device code
// into the .cu, the records that views hold into the host stubs.
#pragma once

#include <clang/AST/Decl.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <string>
#include <vector>

namespace carbide::codegen {

// `decls` (namespace-scope declarations in source order) inside their namespaces, each under a
// #line to its file (`main_path` for the translated file), with the edits `rewriter` holds.
std::string copy_declarations(const std::vector<const clang::Decl*>& decls, const clang::Rewriter& rewriter,
                              const std::string& main_path);

}  // namespace carbide::codegen
