#include "model/module_api.hpp"

namespace carbide::model {

std::optional<ApiCall> api_member(const clang::CXXMethodDecl* method, const Program& program) {
  if (method == nullptr || !method->getIdentifier() || method->getParent()->getName() != kModuleClassName)
    return std::nullopt;
  const std::string owner = method->getParent()->getQualifiedNameAsString();
  const llvm::StringRef name = method->getName();
  for (const Module& module : program.modules) {
    if (owner != module.qualified_name + "::" + kModuleClassName) continue;
    for (const Kernel& kernel : module.kernels) {
      if (name == kernel.name) return ApiCall{&kernel, ApiMember::Launch};
      if (name == prepare_function_name(kernel.name)) return ApiCall{&kernel, ApiMember::Prepare};
      if (name == unchecked_launch_name(kernel.name)) return ApiCall{&kernel, ApiMember::UncheckedLaunch};
    }
  }
  return std::nullopt;
}

}  // namespace carbide::model
