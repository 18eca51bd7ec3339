#include "device_unsupported.hpp"

#include "device_walk.hpp"
#include "analysis/collective_sites.hpp"
#include "analysis/device_analysis.hpp"
#include "analysis/pure_operations.hpp"
#include "analysis/shared_accesses.hpp"
#include "analysis/thread_values.hpp"
#include "model/dialect.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMap.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

#include <map>
#include <memory>
#include <set>

namespace carbide::rules {
namespace {

namespace dialect = model::dialect;

// True for functions nvcc provides on the device whatever their declaration shows: the
// standard and CUDA headers' own (<cmath>, std::min, ...) and Carbide's device vocabulary.
bool provided_by_toolchain(const clang::FunctionDecl* function, const clang::SourceManager& sources) {
  if (function->getBuiltinID() != 0) return true;
  const clang::SourceLocation at = sources.getExpansionLoc(function->getCanonicalDecl()->getLocation());
  if (sources.isInSystemHeader(at)) return true;
  return !sources.isInMainFile(at) && model::vocabulary::is_carbide(function);
}

// Whether code reaches a barrier, a warp collective or shared memory: a barrier or collective
// of the vocabulary, anything of carbide::block, a shared array, or a function of the program
// (called, constructed or destroyed) that does. Memoized per function; a cycle counts as none
// on its way round (recursion is refused on its own).
class BlockEffects {
 public:
  bool of(const clang::FunctionDecl* function) {
    if (function == nullptr) return false;
    if (model::vocabulary::is_carbide(function))
      return llvm::StringRef(function->getQualifiedNameAsString()).starts_with("carbide::block::");
    const clang::FunctionDecl* definition = nullptr;
    if (!function->hasBody(definition)) return false;
    auto [entry, inserted] = memo_.try_emplace(definition, false);
    if (!inserted) return entry->second;
    bool found = in(definition->getBody());
    if (const auto* constructor = llvm::dyn_cast<clang::CXXConstructorDecl>(definition))
      for (const clang::CXXCtorInitializer* init : constructor->inits()) found = found || in(init->getInit());
    memo_[definition] = found;
    return found;
  }

  bool in(const clang::Stmt* statement) {
    if (statement == nullptr) return false;
    if (const auto* expr = llvm::dyn_cast<clang::Expr>(statement)) {
      if (const clang::CXXRecordDecl* record = expr->getType().getNonReferenceType()->getAsCXXRecordDecl();
          record != nullptr && model::vocabulary::is_shared_array(record))
        return true;
    }
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(statement)) {
      if (model::vocabulary::required_arrival(call) || of(call->getDirectCallee())) return true;
    } else if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(statement)) {
      if (of(construct->getConstructor())) return true;
    } else if (const auto* bind = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(statement)) {
      if (of(bind->getTemporary()->getDestructor())) return true;
    } else if (const auto* argument = llvm::dyn_cast<clang::CXXDefaultArgExpr>(statement)) {
      if (in(argument->getExpr())) return true;
    } else if (const auto* member = llvm::dyn_cast<clang::CXXDefaultInitExpr>(statement)) {
      if (in(member->getExpr())) return true;
    } else if (const auto* declarations = llvm::dyn_cast<clang::DeclStmt>(statement)) {
      for (const clang::Decl* decl : declarations->decls())
        if (const auto* var = llvm::dyn_cast<clang::VarDecl>(decl); var && on_destruction(var->getType()))
          return true;
    }
    for (const clang::Stmt* child : statement->children())
      if (in(child)) return true;
    return false;
  }

  // True when a variable of `type` going out of scope runs a destructor that has effects.
  bool on_destruction(clang::QualType type) {
    const clang::CXXRecordDecl* record = type->getAsCXXRecordDecl();
    return record != nullptr && record->hasDefinition() && of(record->getDestructor());
  }

 private:
  std::map<const clang::FunctionDecl*, bool> memo_;
};

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
    definition_ = function;
    function_value_reported_ = false;
    site_calls_.clear();
    barrier_calls_.clear();
    for (const analysis::CollectiveSite& site : context_.device.collective_sites().in(function)) {
      site_calls_.insert(site.call);
      if (site.arrival == model::vocabulary::Arrival::Block) barrier_calls_.insert(site.call);
    }
    parents_ = std::make_unique<clang::ParentMap>(function->getBody());
    for (const clang::ParmVarDecl* parameter : function->parameters()) check_variable(parameter, nullptr);
    return TraverseStmt(function->getBody());
  }

  // The dialect's table (model/dialect_statements.def): every statement of device code, implicit
  // code included, is either modelled, allowed under a condition checked here, or refused.
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitStmt(clang::Stmt* statement) {
    const dialect::StatementRule& rule = dialect::statement(statement->getStmtClass());
    switch (rule.verdict) {
      case dialect::Verdict::Refused:
        report(statement->getBeginLoc(), rule.why);
        break;
      case dialect::Verdict::OutsideBarrierCode:
        check_structured(statement);
        break;
      case dialect::Verdict::ImplicitCall:
        check_implicit_call(statement);
        break;
      case dialect::Verdict::Cast:
      case dialect::Verdict::Allowed:
      case dialect::Verdict::TemplatePattern:
        break;
    }
    return true;
  }
  // && and || are branches: a barrier on their right runs for some threads only.
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->isLogicalOp() && reaches_collective(op->getRHS()) && block_uniform(op->getLHS()))
      report(op->getOperatorLoc(), "a barrier or collective on the right of '" + op->getOpcodeStr().str() +
                                       "' runs only where the left side lets it: the barrier phases "
                                       "take a barrier as a statement of its own; call it before the test");
    return true;
  }
  bool VisitExplicitCastExpr(clang::ExplicitCastExpr* cast) {
    switch (cast->getCastKind()) {
      case clang::CK_ToVoid: case clang::CK_NoOp: case clang::CK_LValueToRValue:
      case clang::CK_ConstructorConversion: case clang::CK_UserDefinedConversion:
      case clang::CK_DerivedToBase: case clang::CK_UncheckedDerivedToBase: case clang::CK_Dependent:
        return true;
      default:
        break;
    }
    // A witness cast itself is carbide-witness-escape's (one diagnostic per fault).
    const clang::CXXRecordDecl* operand = cast->getSubExpr()->getType().getNonReferenceType()->getAsCXXRecordDecl();
    if (operand != nullptr && model::vocabulary::witness_kind(operand)) return true;
    if (dialect::holds_protected_type(cast->getType()) ||
        dialect::holds_protected_type(cast->getSubExpr()->getType()))
      report(cast->getBeginLoc(), "a cast from '" + cast->getSubExpr()->getType().getAsString() + "' to '" +
                                      cast->getType().getAsString() +
                                      "' would forge or alias a witness, a view, a shared array or a tile "
                                      "handle; make them only through the vocabulary");
    return true;
  }
  bool VisitDeclStmt(clang::DeclStmt* statement) {
    for (const clang::Decl* decl : statement->decls())
      if (const auto* var = llvm::dyn_cast<clang::VarDecl>(decl)) check_variable(var, statement);
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
    if (barrier_calls_.count(call)) check_barrier_stands_alone(call);
    // A view is known by what it was made from (a local copy is the parameter it copies).
    if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call);
        op && op->isAssignmentOp() && op->getNumArgs() > 0 &&
        analysis::is_disjoint_view(op->getArg(0)->getType()->getAsCXXRecordDecl()))
      report(call->getBeginLoc(), "'" + source_text(context_.ast, op->getArg(0)) +
                                      "' is an exclusive view assigned another value: the checker knows a view by "
                                      "the one it was made from; declare a new local for the other view");
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
    if (model::vocabulary::is_warp_fold(call) && call->getNumArgs() == 2) check_fold_operation(call);
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
  // warp::reduce calls its operation inside Carbide's header, unseen by the analyses, and counts
  // on every lane computing the same fold: the operation must be a function of its two values.
  void check_fold_operation(const clang::CallExpr* call) {
    const clang::Expr* operation = call->getArg(1);
    if (const auto why = analysis::impure_operation_reason(operation, context_.ast))
      report(operation->getBeginLoc(),
             "the operation of '" + source_text(context_.ast, call->getCallee()) + "' " + *why +
                 ": every lane must fold the same values the same way, so pass a lambda without captures "
                 "that computes from its two values alone ([](float a, float b) { return fmaxf(a, b); })");
  }

  // True when `statement` holds one of the function's barrier or collective sites (a call of
  // block::sync(), a warp collective, or a helper that reaches one).
  bool reaches_collective(const clang::Stmt* statement) const {
    if (statement == nullptr || site_calls_.empty()) return false;
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(statement); call && site_calls_.count(call)) return true;
    for (const clang::Stmt* child : statement->children())
      if (reaches_collective(child)) return true;
    return false;
  }

  // A barrier or collective in an arm of ?: under a block-uniform test (under a thread-dependent
  // one, carbide-divergent-barrier reports it: one diagnostic per fault).
  void check_structured(const clang::Stmt* statement) {
    const auto* conditional = llvm::dyn_cast<clang::AbstractConditionalOperator>(statement);
    if (conditional != nullptr &&
        (reaches_collective(conditional->getTrueExpr()) || reaches_collective(conditional->getFalseExpr())) &&
        block_uniform(conditional->getCond()))
      report(statement->getBeginLoc(), "a barrier or collective in an arm of '?:': the barrier phases take a "
                                       "barrier as a statement of its own (docs/dialect.md); restructure it "
                                       "with if");
  }

  // A barrier orders what comes before it against what comes after. Inside a larger expression
  // C++ leaves that order open (operands, arguments), or never runs it (sizeof, decltype): the
  // call must be a statement, a declaration's or a variable's assignment's value, or a return.
  // Under ?:, && and || the checks above and carbide-divergent-barrier speak.
  void check_barrier_stands_alone(const clang::CallExpr* call) {
    for (const clang::Stmt* at = parents_->getParent(call); llvm::isa_and_nonnull<clang::Expr>(at);
         at = parents_->getParent(at)) {
      const auto* op = llvm::dyn_cast<clang::BinaryOperator>(at);
      if (llvm::isa<clang::AbstractConditionalOperator>(at) || (op && op->isLogicalOp())) return;
    }
    const clang::Stmt* child = call;
    const clang::Stmt* parent = parents_->getParent(call);
    for (; llvm::isa_and_nonnull<clang::Expr>(parent); child = parent, parent = parents_->getParent(parent)) {
      if (llvm::isa<clang::ParenExpr, clang::ImplicitCastExpr, clang::ExprWithCleanups, clang::MaterializeTemporaryExpr,
                    clang::CXXBindTemporaryExpr>(parent))
        continue;
      if (const auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(parent); cast && cast->getCastKind() == clang::CK_ToVoid)
        continue;
      if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(parent);
          op && op->getOpcode() == clang::BO_Assign && op->getRHS() == child &&
          llvm::isa<clang::DeclRefExpr>(op->getLHS()->IgnoreParenImpCasts()))
        continue;
      break;
    }
    if (!llvm::isa_and_nonnull<clang::Expr>(parent)) return;
    report(call->getBeginLoc(), "'" + source_text(context_.ast, call) + "' " +
                                    (model::vocabulary::is_barrier(call) ? "is a barrier" : "reaches a barrier") +
                                    " inside a larger expression, where C++ does not fix the order it runs in "
                                    "against the rest (or never runs it): call it as a statement of its own");
  }

  // True when every block the function runs in (each calling contract) finds `expr` the same for
  // all its threads.
  bool block_uniform(const clang::Expr* expr) const {
    for (const analysis::BlockShape& shape : context_.device.calling_shapes(definition_))
      if (context_.device.thread_values(definition_, shape).uniformity(expr) > analysis::Uniformity::Uniform)
        return false;
    return true;
  }

  // Constructors, destructors, default arguments and member initializers: code the call site does
  // not show, which the barrier phases and the shared accesses would not see.
  void check_implicit_call(const clang::Stmt* statement) {
    const clang::FunctionDecl* runs = nullptr;
    const clang::Expr* shown = nullptr;
    clang::SourceLocation at = statement->getBeginLoc();
    std::string what;
    if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(statement)) {
      runs = construct->getConstructor();
      what = "the constructor of '" + construct->getType().getAsString() + "'";
    } else if (const auto* inherited = llvm::dyn_cast<clang::CXXInheritedCtorInitExpr>(statement)) {
      runs = inherited->getConstructor();
      what = "the inherited constructor";
    } else if (const auto* bind = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(statement)) {
      runs = bind->getTemporary()->getDestructor();
      what = "the destructor of a temporary '" + bind->getType().getAsString() + "'";
    } else if (const auto* argument = llvm::dyn_cast<clang::CXXDefaultArgExpr>(statement)) {
      shown = argument->getExpr();
      at = argument->getUsedLocation();
      what = "the default argument";
    } else if (const auto* member = llvm::dyn_cast<clang::CXXDefaultInitExpr>(statement)) {
      shown = member->getExpr();
      at = member->getUsedLocation();
      what = "the default member initializer of '" + member->getField()->getNameAsString() + "'";
    }
    if ((runs != nullptr && effects_.of(runs)) || (shown != nullptr && effects_.in(shown)))
      report(at, what + " reaches a barrier, a collective or shared memory, which the barrier "
                        "phases do not see here; call a named function for it as a statement of its own");
  }

  // A declared variable or parameter: its destructor, unions, pointer provenance, view elements.
  void check_variable(const clang::VarDecl* var, const clang::DeclStmt* statement) {
    const clang::QualType type = var->getType();
    if (effects_.on_destruction(type))
      report(var->getTypeSpecStartLoc(), "the destructor of '" + type.getAsString() + "' reaches a barrier, a collective "
                                     "or shared memory, which would run unseen when '" + var->getNameAsString() +
                                     "' goes out of scope; call a named function for it instead");
    if (dialect::holds_protected_union(type))
      report(var->getLocation(), "'" + var->getNameAsString() + "' holds a union with a witness, a view, a shared "
                                 "array or a tile handle: writing one member and reading another would "
                                 "forge or alias it");
    check_shared_handle(var, statement);
    const bool unsafe = statement != nullptr && context_.device.in_unsafe_block(statement);
    if (!unsafe && dialect::is_pointer_handle(type))
      report(var->getLocation(), "'" + var->getNameAsString() + "' is a " +
                                     (type->isReferenceType() ? "reference to a pointer" : "pointer to a pointer") +
                                     ": a pointer changed through it keeps the provenance the checker gave it; "
                                     "return the pointer instead, or write this inside CARBIDE_UNSAFE");
    if (const clang::CXXRecordDecl* record = type.getNonReferenceType()->getAsCXXRecordDecl();
        record != nullptr && model::vocabulary::view_kind(record)) {
      if (const auto* view = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(record);
          view != nullptr && view->getTemplateArgs().size() > 0 &&
          view->getTemplateArgs()[0].getKind() == clang::TemplateArgument::Type &&
          dialect::has_mutable_field(view->getTemplateArgs()[0].getAsType()))
        report(var->getLocation(), "the element type of '" + var->getNameAsString() +
                                       "' has a mutable member, which a read-only view could write; drop "
                                       "'mutable'");
    }
  }

  // Shared memory is identified by the block::shared call that made its handle: a handle copied
  // into another variable or a struct is refused, not taken for another array.
  void check_shared_handle(const clang::VarDecl* var, const clang::DeclStmt* statement) {
    const clang::QualType type = var->getType();
    const clang::CXXRecordDecl* record = type->getAsCXXRecordDecl();
    if (record != nullptr && model::vocabulary::is_shared_array(record)) {
      if (statement != nullptr && !made_by_vocabulary(var->getInit()))
        report(var->getLocation(), "'" + var->getNameAsString() + "' copies a shared array handle: the checker "
                                   "knows shared memory by the carbide::block::shared call that made it; use "
                                   "that handle, or pass it to a helper");
      return;
    }
    // A closure's captures are carbide-shared-race's (it reports accesses inside lambdas).
    if (record != nullptr && !record->isLambda() && dialect::holds_shared_array(type))
      report(var->getLocation(), "'" + var->getNameAsString() + "' is a '" + type.getAsString() +
                                     "', which holds a shared array handle: the checker knows shared memory by "
                                     "the handle a carbide::block::shared call made; keep the handle a local");
  }
  static bool made_by_vocabulary(const clang::Expr* init) {
    if (init == nullptr) return false;
    init = init->IgnoreImplicit();
    if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(init);
        construct != nullptr && construct->getNumArgs() == 1)
      init = construct->getArg(0)->IgnoreImplicit();
    const auto* call = llvm::dyn_cast<clang::CallExpr>(init);
    const clang::FunctionDecl* callee = call ? call->getDirectCallee() : nullptr;
    if (callee == nullptr || !model::vocabulary::is_carbide(callee)) return false;
    const std::string name = callee->getQualifiedNameAsString();
    return name == "carbide::block::shared" || name == "carbide::block::shared_at" ||
           name == "carbide::block::dynamic_shared";
  }

  const clang::FunctionDecl* current_ = nullptr;
  const clang::FunctionDecl* definition_ = nullptr;
  std::set<const clang::CallExpr*> site_calls_;  // the current function's barrier and collective sites
  std::set<const clang::CallExpr*> barrier_calls_;  // those that reach a block barrier
  std::unique_ptr<clang::ParentMap> parents_;
  BlockEffects effects_;
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

// The analyses follow a kernel's helpers through analysis::kMaxHelperDepth calls below the
// first; a call deeper below a kernel than that is refused, so that no helper's shared accesses
// are followed in part. Recursive calls are left to their own finding.
void report_calls_too_deep(const RuleContext& context, std::string_view rule, const std::vector<DeviceCall>& calls,
                           const CallGraph& graph) {
  constexpr int kDeepest = analysis::kMaxHelperDepth + 1;
  std::map<const clang::FunctionDecl*, std::vector<const DeviceCall*>> calls_from;
  for (const DeviceCall& call : calls) calls_from[call.caller->getCanonicalDecl()].push_back(&call);
  std::map<const clang::FunctionDecl*, int> deepest;  // the most calls below a kernel each function was met at
  std::set<const clang::CallExpr*> reported;
  std::vector<std::pair<const clang::FunctionDecl*, int>> work;
  for (const model::Module& module : context.program.modules)
    for (const model::Kernel& kernel : module.kernels) work.push_back({kernel.decl->getCanonicalDecl(), 0});
  while (!work.empty()) {
    const auto [function, depth] = work.back();
    work.pop_back();
    if (const auto met = deepest.find(function); met != deepest.end() && met->second >= depth) continue;
    deepest[function] = depth;
    for (const DeviceCall* call : calls_from[function]) {
      std::set<const clang::FunctionDecl*> seen;
      if (call->callee == call->caller || reaches(call->callee, call->caller, graph, seen)) continue;
      if (depth + 1 <= kDeepest) {
        work.push_back({call->callee->getCanonicalDecl(), depth + 1});
      } else if (reported.insert(call->site).second) {
        context.reporter.report(finding(
            rule, diag::Severity::Error, call->site->getBeginLoc(),
            "call to '" + call->callee->getQualifiedNameAsString() + "' more than " + std::to_string(kDeepest) +
                " helpers below a kernel: the checker follows shared memory and barriers through " +
                std::to_string(kDeepest) + " levels of helpers; call it from a shallower helper or fold "
                "a level into its caller"));
      }
    }
  }
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
  report_calls_too_deep(context, name(), calls, graph);
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
