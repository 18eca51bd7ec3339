#include "launch_aliasing.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <optional>

namespace carbide::rules {
namespace {

// The buffer an argument names, seen through references, std::move and member access:
// `auto& r = buf; launch(r)` names `buf`.
struct BufferName {
  const clang::VarDecl* root = nullptr;
  std::string path;  // "c_dev", "bufs.out"
  bool operator==(const BufferName& other) const {
    return root == other.root && path == other.path;
  }
};

std::optional<BufferName> buffer_name(const clang::Expr* expr) {
  std::string members;
  for (int depth = 0; depth < 16; ++depth) {
    expr = expr->IgnoreParenImpCasts();
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(expr)) {
      const clang::FunctionDecl* callee = call->getDirectCallee();
      if (!callee || !callee->isInStdNamespace() || callee->getName() != "move" ||
          call->getNumArgs() != 1)
        return std::nullopt;
      expr = call->getArg(0);
    } else if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr)) {
      if (member->isArrow()) return std::nullopt;
      members = "." + member->getMemberDecl()->getNameAsString() + members;
      expr = member->getBase();
    } else if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
      const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
      if (var == nullptr) return std::nullopt;
      if (var->getType()->isReferenceType() && var->getInit() && !llvm::isa<clang::ParmVarDecl>(var)) {
        expr = var->getInit();
        continue;
      }
      return BufferName{var, var->getNameAsString() + members};
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

const model::Kernel* launched_kernel(const clang::CXXMemberCallExpr* call,
                                     const model::Program& program) {
  const clang::CXXMethodDecl* method = call->getMethodDecl();
  if (method == nullptr || method->getParent()->getName() != "Module") return nullptr;
  const std::string owner = method->getParent()->getQualifiedNameAsString();
  for (const model::Module& module : program.modules) {
    if (owner != module.qualified_name + "::Module") continue;
    for (const model::Kernel& kernel : module.kernels)
      if (method->getName() == kernel.name || method->getName() == "unsafe_launch_" + kernel.name)
        return &kernel;
  }
  return nullptr;
}

// Parameters that name memory, and those the kernel writes: views, and a tile kernel's tensors
// (its ct::out partitions are written, its ct::in tensors read).
bool names_memory(model::ParamKind kind) {
  return model::is_view(kind) || kind == model::ParamKind::TileOut || kind == model::ParamKind::TileIn;
}
bool is_written(model::ParamKind kind) { return model::is_exclusive(kind) || kind == model::ParamKind::TileOut; }

class Finder : public clang::RecursiveASTVisitor<Finder> {
 public:
  Finder(const RuleContext& context, std::string_view rule) : context_(context), rule_(rule) {}

  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr* call) {
    const clang::SourceManager& sources = context_.ast.getSourceManager();
    if (!sources.isInMainFile(sources.getExpansionLoc(call->getBeginLoc()))) return true;
    const model::Kernel* kernel = launched_kernel(call, context_.program);
    // Arguments: the stream, the prepared launch (or config; not for a tile kernel, whose grid
    // comes from its partitions), then the kernel's parameters.
    const unsigned kLeading = kernel && kernel->is_tile ? 1 : 2;
    if (kernel == nullptr || call->getNumArgs() != kLeading + kernel->params.size()) return true;
    std::vector<std::optional<BufferName>> names;
    for (std::size_t i = 0; i < kernel->params.size(); ++i)
      names.push_back(names_memory(kernel->params[i].kind) ? buffer_name(call->getArg(kLeading + i))
                                                   : std::nullopt);
    for (std::size_t i = 0; i < names.size(); ++i) {
      for (std::size_t j = i + 1; j < names.size(); ++j) {
        if (!names[i] || !names[j] || !(*names[i] == *names[j])) continue;
        const bool first_exclusive = is_written(kernel->params[i].kind);
        const bool second_exclusive = is_written(kernel->params[j].kind);
        if (!first_exclusive && !second_exclusive) continue;  // two readers may share
        const model::Parameter& exclusive = first_exclusive ? kernel->params[i] : kernel->params[j];
        const model::Parameter& other = first_exclusive ? kernel->params[j] : kernel->params[i];
        report(call, *kernel, *names[i], exclusive, other);
      }
    }
    return true;
  }

 private:
  void report(const clang::CXXMemberCallExpr* call, const model::Kernel& kernel,
              const BufferName& buffer, const model::Parameter& exclusive,
              const model::Parameter& other) {
    auto result = finding(
        rule_, diag::Severity::Error, call->getExprLoc(),
        "'" + buffer.path + "' is passed to exclusive parameter '" + exclusive.name +
            "' and to parameter '" + other.name + "' of '" + kernel.qualified_name + "'; " +
            (kernel.is_tile ? "tile blocks writing their tiles of '" : "threads writing their elements of '") +
            exclusive.name + "' would race with " + (kernel.is_tile ? "tile blocks" : "threads") + " using '" +
            other.name + "'. Pass distinct " + (kernel.is_tile ? "partitions" : "buffers"),
        call->getSourceRange());
    result.notes.push_back({buffer.root->getLocation(), "'" + buffer.root->getNameAsString() +
                                                            "' declared here"});
    result.notes.push_back({exclusive.decl->getLocation(),
                            "'" + exclusive.name + "' is an exclusive output of '" +
                                kernel.qualified_name + "'"});
    context_.reporter.report(std::move(result));
  }

  const RuleContext& context_;
  std::string_view rule_;
};

}  // namespace

void LaunchAliasingRule::check(const RuleContext& context) {
  Finder finder(context, name());
  finder.TraverseDecl(context.ast.getTranslationUnitDecl());
}

}  // namespace carbide::rules
