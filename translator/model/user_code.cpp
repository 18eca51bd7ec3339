#include "model/user_code.hpp"

#include <clang/AST/DeclCXX.h>

namespace carbide::model {

bool in_user_code(const clang::SourceManager& sources, const clang::Decl* decl) {
  // A builtin Clang declares where it is first used (__builtin_inff, which INFINITY expands to)
  // stands at the user's line but is the compiler's.
  if (decl->isImplicit()) return false;
  if (const auto* function = llvm::dyn_cast<clang::FunctionDecl>(decl); function && function->getBuiltinID() != 0)
    return false;
  // Where it was first declared: a function the C library declares and Carbide's intrinsics
  // header defines (__expf) is the toolchain's, not the user's.
  const clang::SourceLocation at = sources.getExpansionLoc(decl->getCanonicalDecl()->getLocation());
  if (sources.isInMainFile(at)) return true;
  if (at.isInvalid() || sources.isInSystemHeader(at) || !sources.getFileEntryRefForID(sources.getFileID(at)))
    return false;
  const clang::DeclContext* outermost = nullptr;
  for (const clang::DeclContext* scope = decl->getDeclContext(); !scope->isTranslationUnit();
       scope = scope->getParent())
    outermost = scope;
  const auto* ns = llvm::dyn_cast_or_null<clang::NamespaceDecl>(outermost);
  return !(ns && ns->getName() == "carbide");
}

}  // namespace carbide::model
