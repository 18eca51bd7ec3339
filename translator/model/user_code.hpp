// Which declarations are the user's: the translated file and the user's own headers, which
// device code is copied from, as opposed to system headers and Carbide's runtime.
#pragma once

#include <clang/AST/Decl.h>
#include <clang/Basic/SourceManager.h>

namespace carbide::model {

bool in_user_code(const clang::SourceManager& sources, const clang::Decl* decl);

}  // namespace carbide::model
