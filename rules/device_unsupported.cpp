#include "device_unsupported.hpp"

#include "device_walk.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

#include <map>
#include <set>

namespace carbide::rules {
namespace {

// True for functions nvcc provides on the device whatever their declaration shows: the
// standard and CUDA headers' own (<cmath>, std::min, ...) and Carbide's device vocabulary.
bool provided_by_toolchain(const clang::FunctionDecl* function, const clang::SourceManager& sources) {
  if (function->getBuiltinID() != 0) return true;
  const clang::SourceLocation at = sources.getExpansionLoc(function->getCanonicalDecl()->getLocation());
  if (sources.isInSystemHeader(at)) return true;
  return !sources.isInMainFile(at) && model::vocabulary::is_carbide(function);
}

struct DeviceCall {
  const clang::FunctionDecl* caller;
  const clang::FunctionDecl* callee;
  const clang::CallExpr* site;
};

using CallGraph = std::map<const clang::FunctionDecl*, std::set<const clang::FunctionDecl*>>;

class Finder : public DeviceCodeFinder<Finder> {
 public:
  Finder(const RuleContext& context, std::string_view rule, std::vector<DeviceCall>& calls)
      : DeviceCodeFinder(context, rule), calls_(calls) {}

  // Calls are attributed to the function whose body is being walked.
  bool TraverseFunctionBody(const clang::FunctionDecl* function) {
    current_ = function->getCanonicalDecl();
    function_value_reported_ = false;
    return TraverseStmt(function->getBody());
  }

  bool VisitCXXThrowExpr(clang::CXXThrowExpr* expr) {
    report(expr->getBeginLoc(), "'throw' cannot run on the device: kernels have no exceptions; "
                                "report failure through an output value");
    return true;
  }
  bool VisitCXXTryStmt(clang::CXXTryStmt* stmt) {
    report(stmt->getBeginLoc(), "'try' cannot run on the device: kernels have no exceptions");
    return true;
  }
  bool VisitCXXTypeidExpr(clang::CXXTypeidExpr* expr) {
    report(expr->getBeginLoc(), "'typeid' needs RTTI, which device code does not have");
    return true;
  }
  bool VisitCXXDynamicCastExpr(clang::CXXDynamicCastExpr* expr) {
    report(expr->getBeginLoc(), "'dynamic_cast' needs RTTI, which device code does not have; "
                                "use a static type or a tag field");
    return true;
  }
  bool VisitCXXNewExpr(clang::CXXNewExpr* expr) {
    report(expr->getBeginLoc(), "'new' allocates on the device heap per thread; size the memory "
                                "on the host and pass a view, or use carbide::block::shared");
    return true;
  }
  bool VisitCXXDeleteExpr(clang::CXXDeleteExpr* expr) {
    report(expr->getBeginLoc(), "'delete' has no place in device code; memory is owned by the "
                                "host's DeviceBuffer");
    return true;
  }
  // A function named other than as a call's callee is a pointer to it (`&block::sync`, or
  // `std::invoke(block::sync)`), which the checker cannot follow to where it is called.
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    const auto* function = llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl());
    if (function == nullptr || callees_.count(ref)) return true;
    report(ref->getBeginLoc(), "'" + function->getQualifiedNameAsString() +
                                   "' is used as a value (a pointer to it): the checker cannot follow it to where it "
                                   "is called; call it by name, or wrap the call in a lambda");
    function_value_reported_ = true;
    return true;
  }
  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr* call) {
    const clang::CXXMethodDecl* method = call->getMethodDecl();
    const auto* member = llvm::dyn_cast<clang::MemberExpr>(call->getCallee()->IgnoreParens());
    if (method && method->isVirtual() && !(member && member->hasQualifier()) &&
        !method->hasAttr<clang::FinalAttr>() && !method->getParent()->hasAttr<clang::FinalAttr>())
      report(call->getBeginLoc(), "virtual call to '" + method->getQualifiedNameAsString() +
                                      "': objects made on the host have no device vtable; "
                                      "dispatch with a switch or a template instead");
    return true;
  }
  // A call whose target the checker cannot name (through a function or member pointer) may be a
  // barrier, a collective or a write it never sees: refused, not assumed harmless.
  bool VisitCallExpr(clang::CallExpr* call) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr) {
      // The pointer's function was reported where it was made one (below): one finding per fault.
      if (!function_value_reported_ && !call->isInstantiationDependent() &&
          !llvm::isa<clang::CXXPseudoDestructorExpr>(call->getCallee()->IgnoreParens()))
        report(call->getBeginLoc(), "call through a pointer to a function: the checker cannot tell what it runs (a "
                                    "barrier, a write to another thread's element); call the function by name, or "
                                    "pass a lambda to a template helper");
      return true;
    }
    if (const auto* named = llvm::dyn_cast<clang::DeclRefExpr>(call->getCallee()->IgnoreParenImpCasts()))
      callees_.insert(named);
    const clang::SourceManager& sources = context_.ast.getSourceManager();
    if (provided_by_toolchain(callee, sources)) return true;
    const clang::FunctionDecl* definition = nullptr;
    if (!callee->hasBody(definition)) {
      report(call->getBeginLoc(), "call to '" + callee->getQualifiedNameAsString() +
                                      "', whose body is not visible: the device can only run "
                                      "functions defined in this file or provided by CUDA");
      return true;
    }
    calls_.push_back({current_, definition->getCanonicalDecl(), call});
    return true;
  }

 private:
  const clang::FunctionDecl* current_ = nullptr;
  std::vector<DeviceCall>& calls_;
  std::set<const clang::DeclRefExpr*> callees_;
  bool function_value_reported_ = false;  // in the function being walked
};

bool reaches(const clang::FunctionDecl* from, const clang::FunctionDecl* target,
             const CallGraph& calls, std::set<const clang::FunctionDecl*>& seen) {
  auto it = calls.find(from);
  if (it == calls.end()) return false;
  for (const clang::FunctionDecl* next : it->second) {
    if (next == target) return true;
    if (seen.insert(next).second && reaches(next, target, calls, seen)) return true;
  }
  return false;
}

}  // namespace

void DeviceUnsupportedRule::check(const RuleContext& context) {
  std::vector<DeviceCall> calls;
  Finder finder(context, name(), calls);
  for (const clang::FunctionDecl* definition : context.device.definitions())
    finder.TraverseFunctionBody(definition);
  CallGraph graph;
  for (const DeviceCall& call : calls) graph[call.caller].insert(call.callee);
  // One report per cycle: at the call that goes back to a function defined earlier.
  const clang::SourceManager& sources = context.ast.getSourceManager();
  for (const DeviceCall& call : calls) {
    if (sources.isBeforeInTranslationUnit(call.caller->getLocation(), call.callee->getLocation()))
      continue;
    std::set<const clang::FunctionDecl*> seen;
    if (call.callee == call.caller || reaches(call.callee, call.caller, graph, seen))
      context.reporter.report(finding(
          name(), diag::Severity::Error, call.site->getBeginLoc(),
          "recursive call to '" + call.callee->getQualifiedNameAsString() +
              "': device threads have a small fixed stack; rewrite the recursion as a loop"));
  }
  // What a tile kernel says that is not part of the Tile path's language (carbide-tile-lowering
  // reports what the lowering cannot take for the target).
  for (const tile::PlannedKernel& kernel : context.tiles.kernels())
    for (const tile::Problem& problem : kernel.model.problems)
      if (problem.kind == tile::Problem::Kind::Unsupported)
        context.reporter.report(finding(name(), diag::Severity::Error, problem.at,
                                        "in tile kernel '" + kernel.model.kernel->qualified_name + "': " + problem.message,
                                        problem.range));
}

}  // namespace carbide::rules
