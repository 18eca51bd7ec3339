#include "launch_aliasing.hpp"

#include "model/module_api.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/DenseMap.h>

#include <cstdint>
#include <optional>
#include <set>
#include <utility>

namespace carbide::rules {
namespace {

// A buffer a launch argument names: the variable, the members below it, and for a slice of it,
// the elements the slice covers.
struct BufferName {
  const clang::VarDecl* root = nullptr;
  std::string path;  // "c_dev", "bufs.out"
  std::optional<std::pair<std::uint64_t, std::uint64_t>> elements;  // [first, end) of a slice
  std::string spelled;  // as the argument names it, when that is a slice's variable
  bool same_buffer(const BufferName& other) const { return root == other.root && path == other.path; }
  // Whether the two may share an element: a whole buffer shares with any slice of it.
  bool overlaps(const BufferName& other) const {
    if (!same_buffer(other)) return false;
    if (!elements || !other.elements) return true;
    return elements->first < other.elements->second && other.elements->first < elements->second;
  }
  std::string describe() const {
    if (!elements) return "'" + path + "'";
    return "'" + spelled + "' (elements [" + std::to_string(elements->first) + ", " +
           std::to_string(elements->second) + ") of '" + path + "')";
  }
};

std::optional<std::uint64_t> constant_value(const clang::Expr* expr, const clang::ASTContext& ast) {
  if (expr->isValueDependent()) return std::nullopt;
  if (auto value = expr->getIntegerConstantExpr(ast); value && !value->isNegative())
    return value->getZExtValue();
  return std::nullopt;
}

// What the rule asks of the host code, answered once per method and per variable: a file of
// many launches asks each about every launch of its function, which was cubic in the launches.
class LaunchIndex {
 public:
  explicit LaunchIndex(const RuleContext& context) : context_(context) {}

  // The kernel a call of the generated API launches (`module.k(...)` or
  // `module.unsafe_launch_k(...)`), or null.
  const model::Kernel* launched_kernel(const clang::CXXMemberCallExpr* call) {
    const clang::CXXMethodDecl* method = call->getMethodDecl();
    if (method == nullptr) return nullptr;
    auto [it, inserted] = kernels_.try_emplace(method, nullptr);
    if (inserted)
      if (const auto api = model::api_member(method, context_.program); api && api->member != model::ApiMember::Prepare)
        it->second = api->kernel;
    return it->second;
  }

  // The buffer an argument names, seen through references, std::move and member access:
  // `auto& r = buf; launch(r)` names `buf`. A slice of it (`auto out = buf.slice(256, 512);`,
  // or a slice of a slice) names the same buffer with the elements it covers, when its offset
  // and count are constants and nothing assigns the slice's variable again; a slice it cannot
  // place names a buffer of its own, left to the launch's run-time overlap check.
  std::optional<BufferName> buffer_name(const clang::Expr* expr, int depth = 0);

 private:
  bool only_launched(const clang::VarDecl* var) {
    auto [it, inserted] = only_launched_.try_emplace(var, false);
    if (inserted) it->second = find_only_launched(var);
    return it->second;
  }
  // A slice's variable that its function only hands to launches and reads (`out.size()`, a
  // further `out.slice(...)`): no assignment or alias can make it name other memory.
  bool find_only_launched(const clang::VarDecl* var);

  const RuleContext& context_;
  llvm::DenseMap<const clang::CXXMethodDecl*, const model::Kernel*> kernels_;
  llvm::DenseMap<const clang::VarDecl*, bool> only_launched_;
};

bool LaunchIndex::find_only_launched(const clang::VarDecl* var) {
  const auto* function = llvm::dyn_cast<clang::FunctionDecl>(var->getDeclContext());
  if (function == nullptr || function->getBody() == nullptr) return false;
  struct Uses : clang::RecursiveASTVisitor<Uses> {
    const clang::VarDecl* var;
    LaunchIndex* index;
    bool trusted = true;
    bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr* call) {
      // Its arguments are fine in a launch; the object, in a const call or a slice.
      const bool launch = index->launched_kernel(call) != nullptr;
      const clang::CXXMethodDecl* method = call->getMethodDecl();
      const bool reads_object = method && (method->isConst() || method->getName() == "slice");
      if (is_var(call->getImplicitObjectArgument()) && reads_object) seen.insert(call->getImplicitObjectArgument()->IgnoreParenImpCasts());
      if (launch)
        for (const clang::Expr* arg : call->arguments())
          if (is_var(arg)) seen.insert(arg->IgnoreParenImpCasts());
      return true;
    }
    bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
      if (ref->getDecl() == var && !seen.count(ref)) trusted = false;
      return true;
    }
    bool is_var(const clang::Expr* expr) const {
      const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
      return ref && ref->getDecl() == var;
    }
    std::set<const clang::Expr*> seen;
  } uses;
  uses.var = var;
  uses.index = this;
  uses.TraverseStmt(function->getBody());
  return uses.trusted;
}

std::optional<BufferName> LaunchIndex::buffer_name(const clang::Expr* expr, int depth) {
  const clang::ASTContext& ast = context_.ast;
  std::string members;
  for (; depth < 16; ++depth) {
    expr = expr->IgnoreImplicit()->IgnoreParenImpCasts();
    if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(expr);
        construct && construct->getNumArgs() == 1) {  // the copy or move a by-value init makes
      expr = construct->getArg(0);
    } else if (const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr)) {
      const clang::CXXMethodDecl* method = call->getMethodDecl();
      if (method == nullptr || method->getName() != "slice" || call->getNumArgs() != 2 ||
          !model::vocabulary::is_carbide(method->getParent()))
        return std::nullopt;
      auto whole = buffer_name(call->getImplicitObjectArgument(), depth + 1);
      const auto offset = constant_value(call->getArg(0), ast);
      const auto count = constant_value(call->getArg(1), ast);
      if (!whole || !offset || !count) return std::nullopt;
      const std::uint64_t base = whole->elements ? whole->elements->first : 0;
      whole->elements = std::make_pair(base + *offset, base + *offset + *count);
      return whole;
    } else if (const auto* call = llvm::dyn_cast<clang::CallExpr>(expr)) {
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
      // A slice kept in a variable: the buffer and elements its initializer names.
      if (members.empty() && var->getInit() && !llvm::isa<clang::ParmVarDecl>(var) && only_launched(var))
        if (auto sliced = buffer_name(var->getInit(), depth + 1); sliced && sliced->elements) {
          sliced->spelled = var->getNameAsString();
          return sliced;
        }
      return BufferName{var, var->getNameAsString() + members, std::nullopt, ""};
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// Parameters that name memory, and those the kernel writes: views, and a tile kernel's tensors
// (its ct::out partitions are written, its ct::in tensors read).
bool names_memory(model::ParamKind kind) {
  return model::is_view(kind) || kind == model::ParamKind::TileOut || kind == model::ParamKind::TileIn;
}
bool is_written(model::ParamKind kind) { return model::is_exclusive(kind) || kind == model::ParamKind::TileOut; }

class Finder : public clang::RecursiveASTVisitor<Finder> {
 public:
  Finder(const RuleContext& context, std::string_view rule) : context_(context), rule_(rule), launches_(context) {}

  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr* call) {
    const clang::SourceManager& sources = context_.ast.getSourceManager();
    if (!sources.isInMainFile(sources.getExpansionLoc(call->getBeginLoc()))) return true;
    const model::Kernel* kernel = launches_.launched_kernel(call);
    // Arguments: the stream, the prepared launch (or config; not for a tile kernel, whose grid
    // comes from its partitions), then the kernel's parameters.
    const unsigned kLeading = kernel && kernel->is_tile ? 1 : 2;
    if (kernel == nullptr || call->getNumArgs() != kLeading + kernel->params.size()) return true;
    std::vector<std::optional<BufferName>> names;
    for (std::size_t i = 0; i < kernel->params.size(); ++i)
      names.push_back(names_memory(kernel->params[i].kind)
                          ? launches_.buffer_name(call->getArg(kLeading + i))
                          : std::nullopt);
    for (std::size_t i = 0; i < names.size(); ++i) {
      for (std::size_t j = i + 1; j < names.size(); ++j) {
        if (!names[i] || !names[j] || !names[i]->overlaps(*names[j])) continue;
        const bool first_exclusive = is_written(kernel->params[i].kind);
        const bool second_exclusive = is_written(kernel->params[j].kind);
        if (!first_exclusive && !second_exclusive) continue;  // two readers may share
        const model::Parameter& exclusive = first_exclusive ? kernel->params[i] : kernel->params[j];
        const model::Parameter& other = first_exclusive ? kernel->params[j] : kernel->params[i];
        const BufferName& exclusive_buffer = first_exclusive ? *names[i] : *names[j];
        const BufferName& other_buffer = first_exclusive ? *names[j] : *names[i];
        report(call, *kernel, exclusive_buffer, other_buffer, exclusive, other);
      }
    }
    return true;
  }

 private:
  // One buffer as a read view and an exclusive one is usually meant as an update in place, which
  // has a form of its own: the exclusive view's own element, read and written by its thread.
  static std::string in_place_advice(const model::Kernel& kernel, const model::Parameter& exclusive,
                                     const model::Parameter& other, bool slices) {
    if (kernel.is_tile || slices || is_written(other.kind)) return "";
    return ", or, to update in place, drop '" + other.name + "' and read each thread's element through '" +
           exclusive.name + "' itself (`*o = f(*o)`)";
  }

  void report(const clang::CXXMemberCallExpr* call, const model::Kernel& kernel, const BufferName& buffer,
              const BufferName& other_buffer, const model::Parameter& exclusive, const model::Parameter& other) {
    const bool slices = buffer.elements || other_buffer.elements;
    const std::string passed =
        slices ? buffer.describe() + " is passed to exclusive parameter '" + exclusive.name + "' and " +
                     other_buffer.describe() + ", which overlaps it, to parameter '" + other.name + "'"
               : "'" + buffer.path + "' is passed to exclusive parameter '" + exclusive.name +
                     "' and to parameter '" + other.name + "'";
    auto result = finding(
        rule_, diag::Severity::Error, call->getExprLoc(),
        passed + " of '" + kernel.qualified_name + "'; " +
            (kernel.is_tile ? "tile blocks writing their tiles of '" : "threads writing their elements of '") +
            exclusive.name + "' would race with " + (kernel.is_tile ? "tile blocks" : "threads") + " using '" +
            other.name + "'. Pass distinct " + (kernel.is_tile ? "partitions" : slices ? "slices that do not overlap" : "buffers") +
            in_place_advice(kernel, exclusive, other, slices),
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
  LaunchIndex launches_;
};

}  // namespace

void LaunchAliasingRule::check(const RuleContext& context) {
  Finder finder(context, name());
  finder.TraverseDecl(context.ast.getTranslationUnitDecl());
}

}  // namespace carbide::rules
