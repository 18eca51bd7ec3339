// The user's macros that copied declarations use. Device code is copied as the source spells it,
// so a macro it names (from the user's headers, or a -D of the build) must be defined again
// where the copy is compiled: nvcc and the host stubs' compile see neither the user's headers
// nor the translation's -D flags.
#pragma once

#include <clang/AST/Decl.h>
#include <clang/Lex/Preprocessor.h>

#include <string>
#include <vector>

namespace carbide::codegen {

// `#define` lines, in the order the source defines them, for every macro named in `decls`' text
// (and in those macros' bodies, transitively) that the user's files or the command line define;
// each under a #line to its definition (`main_path` for the translated file). Macros of system
// headers, of Carbide's headers (CARBIDE_*) and Clang's built-in ones are left out: the generated
// file includes those headers itself.
std::string copy_macros(const std::vector<const clang::Decl*>& decls, clang::Preprocessor& preprocessor,
                        const std::string& main_path);

}  // namespace carbide::codegen
