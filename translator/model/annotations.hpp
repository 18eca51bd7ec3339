// How Carbide's annotation macros appear in the AST.
#pragma once

#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/Basic/SourceManager.h>

namespace carbide::model {

inline constexpr llvm::StringLiteral kKernelAnnotation = "carbide.kernel";
inline constexpr llvm::StringLiteral kTileKernelAnnotation = "carbide.tile_kernel";
inline constexpr llvm::StringLiteral kBoundsAnnotation = "carbide.launch_bounds";
inline constexpr llvm::StringLiteral kContractAnnotation = "carbide.launch_contract";
inline constexpr llvm::StringLiteral kConstantAnnotation = "carbide.constant";

inline const clang::AnnotateAttr* find_annotation(const clang::Decl* decl, llvm::StringRef name) {
  for (const auto* attr : decl->specific_attrs<clang::AnnotateAttr>())
    if (attr->getAnnotation() == name) return attr;
  return nullptr;
}

inline bool is_kernel(const clang::FunctionDecl* function) {
  return find_annotation(function, kKernelAnnotation) != nullptr;
}

inline bool is_tile_kernel(const clang::FunctionDecl* function) {
  return find_annotation(function, kTileKernelAnnotation) != nullptr;
}

// A CARBIDE_CONSTANT table: in constant memory on the device, set by the host through the module.
inline bool is_constant_table(const clang::VarDecl* var) {
  return find_annotation(var, kConstantAnnotation) != nullptr;
}

// A kernel of either path the translated file itself defines (not one from a header it includes).
inline bool is_file_kernel(const clang::FunctionDecl* function, const clang::SourceManager& sources) {
  return (is_kernel(function) || is_tile_kernel(function)) && function->isThisDeclarationADefinition() &&
         sources.isInMainFile(sources.getExpansionLoc(function->getLocation()));
}

}  // namespace carbide::model
