// Kernel templates run once per instantiation the host launches. Host code names one through
// the generated API (`module.reduce<256>(…)`, `module.prepare_reduce<256>(…)`), whose launch
// functions are member templates with the kernel's own template parameters; the kernel template
// itself is never used on the host, so Clang has not instantiated it. This asks Sema, once the
// file is parsed, for each kernel template's instances at every argument list the API's member
// templates were used with, so that the rules check them and codegen emits them.
#pragma once

#include <clang/Frontend/ASTUnit.h>

namespace carbide::model {

// Instantiates the kernel templates of the main file that host code launches. Problems in an
// instance are reported through the parse's own diagnostics, as a compiler reports them.
void instantiate_launched_kernels(clang::ASTUnit& ast);

}  // namespace carbide::model
