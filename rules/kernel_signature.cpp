#include "kernel_signature.hpp"

#include <clang/AST/DeclCXX.h>

namespace carbide::rules {
namespace {

using model::UnsupportedParam;

std::string problem(const model::Parameter& param) {
  switch (param.unsupported) {
    case UnsupportedParam::RawPointer:
      return "is a raw pointer, which carries no length and no ownership";
    case UnsupportedParam::Reference:
      return "is a reference; a kernel's arguments are copied to the device, so a reference "
             "would point at host memory";
    case UnsupportedParam::NotTriviallyCopyable:
      return "has a type that is not trivially copyable, so it cannot be copied to the device";
    case UnsupportedParam::MutableSharedView:
      return "is a carbide::span of mutable elements, which every thread could write";
    case UnsupportedParam::UnnameableScalar:
      return "has a type the generated launch API cannot name before your code";
    case UnsupportedParam::TileElement:
      return "is a tile tensor of '" + param.element_type + "'";
    case UnsupportedParam::None:
      break;
  }
  return "";
}

std::string advice(const model::Parameter& param, bool pointee_const) {
  switch (param.unsupported) {
    case UnsupportedParam::RawPointer:
      return pointee_const ? "write carbide::span<const " + param.element_type + "> instead"
                           : "write carbide::disjoint_span<" + param.element_type +
                                 "> (one element per thread) or carbide::atomic_span<" +
                                 param.element_type + "> instead";
    case UnsupportedParam::Reference:
      return "pass the value itself, or a view of device memory";
    case UnsupportedParam::NotTriviallyCopyable:
      return "pass a plain struct of values, or a view of device memory";
    case UnsupportedParam::MutableSharedView:
      return "write carbide::span<const " + param.element_type +
             "> to read, or carbide::disjoint_span<" + param.element_type + "> to write";
    case UnsupportedParam::TileElement:
      return "tile tensors hold float, double, integers, ct::bf16 or ct::f16";
    case UnsupportedParam::UnnameableScalar:
      // A view's element (element_type is set) has no underlying integer to pass instead.
      return param.element_type.empty()
                 ? "declare the type as a plain struct at namespace scope, or pass its underlying integer type"
                 : "declare '" + param.element_type + "' as a plain struct at namespace scope";
    case UnsupportedParam::None:
      break;
  }
  return "";
}

void check_parameter(const RuleContext& context, const model::Kernel& kernel,
                     const model::Parameter& param, std::string_view rule) {
  if (param.unsupported == UnsupportedParam::None) return;
  const clang::ParmVarDecl* decl = param.decl;
  // From the first specifier: the type of `const float* p` starts at `const`.
  const clang::SourceRange type_range(
      decl->getBeginLoc(), decl->getTypeSourceInfo()->getTypeLoc().getSourceRange().getEnd());
  const bool pointee_const = decl->getType()->isPointerType() &&
                             decl->getType()->getPointeeType().isConstQualified();
  auto result = finding(rule, diag::Severity::Error, decl->getBeginLoc(),
                        "parameter '" + param.name + "' of kernel '" + kernel.qualified_name +
                            "' " + problem(param) + "; " + advice(param, pointee_const),
                        type_range);
  // An instance's parameter is spelled by its template (`T value`): no replacement fits there.
  if (!kernel.is_instance() && (param.unsupported == UnsupportedParam::RawPointer ||
                                param.unsupported == UnsupportedParam::MutableSharedView)) {
    // A mutable span most often means a read that forgot its const.
    const bool reads = pointee_const || param.unsupported == UnsupportedParam::MutableSharedView;
    const std::string view = reads ? "carbide::span<const " + param.element_type + ">"
                                   : "carbide::disjoint_span<" + param.element_type + ">";
    // Up to the name, so that qualifiers after the `*` (`float* __restrict__ out`) go too: the
    // type's own range ends at the `*`.
    if (decl->getIdentifier() != nullptr && decl->getLocation().isFileID() && decl->getBeginLoc().isFileID())
      result.fixits.push_back({clang::CharSourceRange::getCharRange(decl->getBeginLoc(), decl->getLocation()), view + " "});
    else
      result.fixits.push_back({clang::CharSourceRange::getTokenRange(type_range), view});
  }
  context.reporter.report(std::move(result));
}

bool is_ascii(llvm::StringRef name) {
  return llvm::all_of(name, [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

}  // namespace

void KernelSignatureRule::check(const RuleContext& context) {
  for (const model::Module& module : context.program.modules) {
    std::vector<const model::Kernel*> kernels = model::named_kernels(module);
    for (const model::Kernel* kernel : kernels)
      for (const model::Kernel* earlier : kernels) {
        if (earlier == kernel) break;
        if (earlier->name != kernel->name) continue;
        auto result = finding(name(), diag::Severity::Error, kernel->decl->getLocation(),
                              "kernel '" + kernel->name + "' has the name of another kernel in namespace '" +
                                  module.qualified_name +
                                  "'; the generated Module launches kernels by name, so give each its own",
                              kernel->decl->getLocation());
        result.notes.push_back({earlier->decl->getLocation(), "the other kernel"});
        context.reporter.report(std::move(result));
        break;
      }
    for (const model::Kernel& kernel : module.kernels)
      if (kernel.is_instance()) kernels.push_back(&kernel);
    for (const model::Kernel* each : kernels) {
      const model::Kernel& kernel = *each;
      const clang::FunctionDecl* decl = kernel.decl;
      // An instance's parameters are checked with their types known; the rest is its template's.
      if (kernel.is_instance()) {
        const clang::FunctionDecl* pattern = decl->getTemplateInstantiationPattern();
        for (std::size_t i = 0; i < kernel.params.size(); ++i)
          if (pattern && i < pattern->getNumParams() && pattern->getParamDecl(i)->getType()->isDependentType())
            check_parameter(context, kernel, kernel.params[i], name());
        continue;
      }
      const clang::SourceLocation at = decl->getLocation();
      const clang::SourceRange name_range(at, at);
      auto report = [&](std::string message) {
        context.reporter.report(
            finding(name(), diag::Severity::Error, at, std::move(message), name_range));
      };
      if (llvm::isa<clang::CXXMethodDecl>(decl))
        report("kernel '" + kernel.qualified_name +
               "' is a member function; a kernel is a free function in a namespace");
      else if (module.namespace_path.empty())
        report("kernel '" + kernel.name +
               "' is in the global namespace; put it in a named namespace, which becomes its "
               "module");
      else if (llvm::is_contained(module.namespace_path, ""))
        report("kernel '" + kernel.name +
               "' is in an anonymous namespace, which the generated host stubs (another "
               "translation unit) cannot name; put it in a named namespace");
      if (!is_ascii(kernel.qualified_name))
        report("kernel '" + kernel.qualified_name +
               "' has a name that is not ASCII, which nvcc refuses for a device entry point; "
               "give the kernel and its namespaces ASCII names");
      if (!decl->getReturnType()->isVoidType())
        report("kernel '" + kernel.qualified_name + "' returns '" +
               decl->getReturnType().getAsString() +
               "'; a kernel returns void and writes its results through a "
               "carbide::disjoint_span or carbide::atomic_span parameter");
      if (decl->isVariadic())
        report("kernel '" + kernel.qualified_name +
               "' is variadic; give it a fixed parameter list");
      if (!kernel.unsupported_template_parameter.empty())
        report("kernel template '" + kernel.qualified_name + "': template parameter " +
               kernel.unsupported_template_parameter +
               "; the generated launch API repeats a kernel's template parameters, which may be "
               "types and integral values");
      for (const model::Parameter& param : kernel.params)
        check_parameter(context, kernel, param, name());
    }
  }
}

}  // namespace carbide::rules
