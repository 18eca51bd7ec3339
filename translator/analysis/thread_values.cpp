#include "analysis/thread_values.hpp"

#include "analysis/changed_variables.hpp"
#include "model/annotations.hpp"
#include "model/user_code.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <llvm/ADT/StringRef.h>

#include <set>

namespace carbide::analysis {
namespace {

constexpr int kMaxDepth = 12;

namespace vocabulary = model::vocabulary;

const clang::Expr* strip(const clang::Expr* expr) { return strip_integral_casts(expr); }

// `expr` without parentheses and the integer conversions that keep its value modulo its width:
// those to a type at least as wide. A narrowing conversion (a 64-bit index made 32 bits) keeps
// only the low bits, where two values an affine form tells apart may meet; it is left for the
// slot solver, which converts exactly.
const clang::Expr* strip_widening(const clang::Expr* expr, const clang::ASTContext& context) {
  for (;;) {
    expr = expr->IgnoreParens();
    if (const auto* full = llvm::dyn_cast<clang::FullExpr>(expr)) {
      expr = full->getSubExpr();
      continue;
    }
    if (const auto* temporary = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(expr)) {
      expr = temporary->getSubExpr();
      continue;
    }
    const auto* cast = llvm::dyn_cast<clang::CastExpr>(expr);
    if (cast == nullptr) return expr;
    const clang::Expr* from = cast->getSubExpr();
    const auto kind = cast->getCastKind();
    if (kind != clang::CK_LValueToRValue && kind != clang::CK_NoOp) {
      const clang::QualType to_type = cast->getType(), from_type = from->getType();
      if (!to_type->isIntegerType() || to_type->isBooleanType() || !from_type->isIntegerType() ||
          context.getIntWidth(to_type) < context.getIntWidth(from_type))
        return expr;
    }
    expr = from;
  }
}

// Collects each local variable's definitions.
class DefinitionCollector : public clang::RecursiveASTVisitor<DefinitionCollector> {
 public:
  std::map<const clang::VarDecl*, std::vector<const clang::Expr*>> definitions;
  std::map<const clang::VarDecl*, std::vector<const clang::Stmt*>> sites;
  std::map<const clang::VarDecl*, const clang::ForStmt*> loop_counters;
  std::map<const clang::Expr*, const clang::CallExpr*> block_stride_parts;  // see VisitCXXForRangeStmt

  bool VisitForStmt(clang::ForStmt* loop) {
    if (const auto* head = llvm::dyn_cast_or_null<clang::DeclStmt>(loop->getInit()))
      for (const clang::Decl* decl : head->decls())
        if (const auto* var = llvm::dyn_cast<clang::VarDecl>(decl)) loop_counters[var] = loop;
    return true;
  }

  bool VisitVarDecl(clang::VarDecl* var) {
    if (var->isLocalVarDecl() && var->getInit()) add(var, var->getInit(), var->getInit());
    return true;
  }
  // A block-stride loop (`for (auto&& row : block::grid_stride(n))`): its implicit iterator
  // test and the loop variable's `*__begin` stand for the range, which is as uniform as `n`.
  bool VisitCXXForRangeStmt(clang::CXXForRangeStmt* loop) {
    const auto* range = llvm::dyn_cast_or_null<clang::CallExpr>(loop->getRangeInit()->IgnoreImplicit());
    if (range == nullptr || !vocabulary::is_block_stride(range)) return true;
    for (const clang::Expr* part : {loop->getCond(), loop->getLoopVariable()->getInit()})
      if (part != nullptr) block_stride_parts[part->IgnoreImplicit()] = range;
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->isAssignmentOp()) add_target(op->getLHS(), op->getRHS(), op);
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->isIncrementDecrementOp()) add_target(op->getSubExpr(), op->getSubExpr(), op);
    return true;
  }

 private:
  // A write to a member or an element of a variable (`p.n = x`) defines the variable too: its
  // uniformity is then at most that of every value written into it.
  void add_target(const clang::Expr* target, const clang::Expr* value, const clang::Stmt* site) {
    if (const clang::VarDecl* var = stored_variable(target)) add(var, value, site);
  }
  void add(const clang::VarDecl* var, const clang::Expr* value, const clang::Stmt* site) {
    definitions[var].push_back(value);
    sites[var].push_back(site);
  }
};

}  // namespace

std::optional<std::int64_t> constant_of(const clang::Expr* expr, const clang::ASTContext& context) {
  if (expr->isValueDependent() || !expr->getType()->isIntegralOrEnumerationType()) return std::nullopt;
  clang::Expr::EvalResult result;
  if (!expr->EvaluateAsInt(result, context)) return std::nullopt;
  return result.Val.getInt().getExtValue();
}

namespace {
bool at_least_32_bits(clang::QualType type) {
  const auto* builtin = type->getAs<clang::BuiltinType>();
  if (builtin == nullptr) return false;
  switch (builtin->getKind()) {
    case clang::BuiltinType::Int:
    case clang::BuiltinType::UInt:
    case clang::BuiltinType::Long:
    case clang::BuiltinType::ULong:
    case clang::BuiltinType::LongLong:
    case clang::BuiltinType::ULongLong:
      return true;
    default:
      return false;
  }
}
}  // namespace

std::optional<Extremum> min_or_max(const clang::CallExpr* call) {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  if (callee == nullptr || call->getNumArgs() != 2 || !callee->getIdentifier()) return std::nullopt;
  const clang::DeclContext* scope = callee->getDeclContext()->getRedeclContext();
  // CUDA's ::min and ::max (Carbide's declare them in carbide::intrinsics) convert a signed and
  // an unsigned operand inside, after the call: only those whose operands are already of the
  // result's type compare the values the arguments have.
  const vocabulary::DeviceFunction* catalogued = vocabulary::device_function(callee);
  const bool cuda_overload = catalogued != nullptr && catalogued->role == vocabulary::Role::Intrinsic;
  if (cuda_overload) {
    const clang::QualType result = callee->getReturnType().getCanonicalType();
    for (const clang::ParmVarDecl* param : callee->parameters())
      if (param->getType().getCanonicalType() != result) return std::nullopt;
  } else if (!scope->isStdNamespace() && !scope->isTranslationUnit()) {
    return std::nullopt;
  }
  if (callee->getName() == "min") return Extremum::Min;
  if (callee->getName() == "max") return Extremum::Max;
  return std::nullopt;
}

bool is_local_witness(const clang::Expr* expr) {
  return vocabulary::witness_kind(expr->getType()->getAsCXXRecordDecl()) == vocabulary::Witness::Local;
}

const clang::Expr* strip_integral_casts(const clang::Expr* expr) {
  for (;;) {
    expr = expr->IgnoreParenImpCasts()->IgnoreImplicit()->IgnoreParenImpCasts();
    const auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(expr);
    if (cast == nullptr || !cast->getType()->isIntegerType() ||
        !cast->getSubExpr()->getType()->isIntegerType())
      return expr;
    // 32 bits hold every coordinate, block extent and shared index; narrower casts may wrap.
    if (!at_least_32_bits(cast->getType())) return expr;
    expr = cast->getSubExpr();
  }
}

Affine Affine::plus(const Affine& other, std::int64_t sign) const {
  Affine sum = *this;
  sum.local += sign * other.local;
  sum.x += sign * other.x;
  sum.y += sign * other.y;
  sum.constant += sign * other.constant;
  for (const auto& [name, coefficient] : other.symbols) {
    sum.symbols[name] += sign * coefficient;
    if (sum.symbols[name] == 0) sum.symbols.erase(name);
  }
  return sum;
}

Affine Affine::scaled(std::int64_t factor) const {
  Affine result = *this;
  result.local *= factor;
  result.x *= factor;
  result.y *= factor;
  result.constant *= factor;
  for (auto& [name, coefficient] : result.symbols) coefficient *= factor;
  if (factor == 0) result.symbols.clear();
  return result;
}

bool Affine::operator==(const Affine& other) const {
  return local == other.local && x == other.x && y == other.y && symbols == other.symbols &&
         constant == other.constant && divisor == other.divisor;
}

std::string symbol_key(const clang::ValueDecl* variable) {
  return variable->getNameAsString() + "#" +
         std::to_string(reinterpret_cast<std::uintptr_t>(variable));
}

ThreadValues::ThreadValues(clang::ASTContext& context, const clang::FunctionDecl* function,
                           BlockShape shape, Parameters parameters, int nesting)
    : context_(context), function_(function), shape_(shape), parameters_(parameters), nesting_(nesting),
      escaping_(escaping_variables(function->getBody())),
      parents_(const_cast<clang::Stmt*>(function->getBody())), control_(context, function) {
  DefinitionCollector collector;
  collector.TraverseStmt(const_cast<clang::Stmt*>(function->getBody()));
  definitions_ = std::move(collector.definitions);
  definition_sites_ = std::move(collector.sites);
  loop_counters_ = std::move(collector.loop_counters);
  block_stride_parts_ = std::move(collector.block_stride_parts);
  if (control_.cfg() != nullptr)
    reaching_ = std::make_unique<ReachingDefinitions>(control_, function->getBody(), definition_sites_);
  compute_variable_uniformity();
}

std::optional<std::vector<const clang::Stmt*>> ThreadValues::reaching_definitions(const clang::DeclRefExpr* use) const {
  if (!reaching_) return std::nullopt;
  if (const auto* var = llvm::dyn_cast<clang::VarDecl>(use->getDecl()); var && escapes(var)) return std::nullopt;
  return reaching_->reaching(use);
}

void ThreadValues::compute_variable_uniformity() {
  for (const auto& [var, defs] : definitions_) variables_[var] = Uniformity::Uniform;
  // A variable is as divergent as its most divergent definition, or as any condition under
  // which it is assigned, except the conditions its declaration is under too: every thread that
  // has the variable passed those (a loop counter declared in a branch is uniform among the
  // threads that run the loop). Monotone, so this converges.
  std::map<const clang::VarDecl*, std::set<const clang::Expr*>> scope_conditions;
  for (const auto& [var, defs] : definitions_)
    if (var->getInit())
      for (const ControlCondition& condition : control_.conditions_for(var->getInit()))
        scope_conditions[var].insert(condition.expr);
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [var, defs] : definitions_) {
      Uniformity level = Uniformity::Uniform;
      for (const clang::Expr* def : defs) level = join(level, uniformity(def, 0));
      for (const clang::Stmt* site : definition_sites_[var])
        for (const ControlCondition& condition : control_.conditions_for(site))
          if (!scope_conditions[var].count(condition.expr))
            level = join(level, uniformity(condition.expr, 0));
      if (level != variables_[var]) {
        variables_[var] = join(level, variables_[var]);
        uniformity_cache_.clear();  // answers built on the old value
        affine_cache_.clear();
        changed = true;
      }
    }
  }
}

llvm::ArrayRef<const clang::Stmt*> ThreadValues::definition_sites(const clang::VarDecl* var) const {
  if (escapes(var)) return {};
  auto found = definition_sites_.find(var);
  if (found == definition_sites_.end()) return {};
  return found->second;
}

const clang::Expr* ThreadValues::sole_initializer(const clang::VarDecl* var) const {
  if (escapes(var)) return nullptr;
  const llvm::ArrayRef<const clang::Stmt*> sites = definition_sites(var);
  return sites.size() == 1 && var->getInit() && sites.front() == var->getInit() ? var->getInit() : nullptr;
}

const clang::ForStmt* ThreadValues::counted_loop(const clang::VarDecl* var) const {
  if (escapes(var)) return nullptr;
  auto found = loop_counters_.find(var);
  return found == loop_counters_.end() ? nullptr : found->second;
}

Uniformity ThreadValues::uniformity(const clang::Expr* expr) const { return uniformity(expr, 0); }

std::optional<std::int64_t> ThreadValues::constant(const clang::Expr* expr) const {
  return constant(expr, 0);
}

// Clang's evaluator walks the whole expression each time it is asked, and the analyses ask at
// every node: evaluating only where every operand is itself constant (memoized) keeps a deep
// non-constant expression at one walk. Past the depth limit a value counts as not constant.
std::optional<std::int64_t> ThreadValues::constant(const clang::Expr* expr, int depth) const {
  if (auto found = constants_.find(expr); found != constants_.end()) return found->second;
  constexpr int kMaxConstantDepth = 64;
  bool operands_constant = depth <= kMaxConstantDepth;
  const clang::Expr* bare = expr->IgnoreParens();
  auto operand = [&](const clang::Expr* part) {
    operands_constant = operands_constant && constant(part, depth + 1).has_value();
  };
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(bare)) {
    operand(op->getLHS());
    operand(op->getRHS());
  } else if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(bare)) {
    operand(op->getSubExpr());
  } else if (const auto* choice = llvm::dyn_cast<clang::ConditionalOperator>(bare)) {
    operand(choice->getCond());
    operand(choice->getTrueExpr());
    operand(choice->getFalseExpr());
  } else if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(bare);
             cast && cast->getSubExpr()->getType()->isIntegralOrEnumerationType()) {
    operand(cast->getSubExpr());
  }
  std::optional<std::int64_t> value;
  if (operands_constant) value = constant_of(expr, context_);
  constants_.emplace(expr, value);
  return value;
}

// Both questions are memoized per expression, so each node is worked out once and check time
// stays linear in the source; an answer cut short by the depth limit is not kept, since the same
// expression asked nearer the top may be answered in full.
template <class Result, class Compute>
Result ThreadValues::memoized(std::map<const clang::Expr*, Result>& cache, const clang::Expr* expr,
                              int depth, Result cut_short, Compute compute) const {
  if (depth > kMaxDepth) {
    truncated_ = true;
    return cut_short;
  }
  if (auto found = cache.find(expr); found != cache.end()) return found->second;
  const bool outer = truncated_;
  truncated_ = false;
  Result result = compute();
  if (!truncated_) cache.emplace(expr, result);
  truncated_ = truncated_ || outer;
  return result;
}

Uniformity ThreadValues::uniformity(const clang::Expr* expr, int depth) const {
  return memoized(uniformity_cache_, expr, depth, Uniformity::Divergent,
                  [&] { return compute_uniformity(expr, depth); });
}

Uniformity ThreadValues::compute_uniformity(const clang::Expr* expr, int depth) const {
  expr = strip(expr);
  if (constant(expr)) return Uniformity::Uniform;
  if (auto form = affine(expr, depth); form && form->varies_by_thread())
    return same_across_warp(*form) ? Uniformity::WarpUniform : Uniformity::Divergent;
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    const clang::ValueDecl* decl = ref->getDecl();
    // A lambda's capture, read in its body: as uniform as the closure, which its call joins in.
    if (ref->refersToEnclosingVariableOrCapture() && parameters_ == Parameters::Uniform &&
        decl->getDeclContext() != function_)
      return Uniformity::Uniform;
    if (llvm::isa<clang::EnumConstantDecl, clang::FunctionDecl, clang::NonTypeTemplateParmDecl>(decl))
      return Uniformity::Uniform;
    const auto* var = llvm::dyn_cast<clang::VarDecl>(decl);
    if (var == nullptr || escapes(var)) return Uniformity::Divergent;
    if (const auto* parameter = llvm::dyn_cast<clang::ParmVarDecl>(var)) return parameter_uniformity(parameter);
    // A constant table is written by the host alone (carbide-global-write refuses device writes).
    if (var->hasGlobalStorage())
      return var->getType().isConstQualified() || model::is_constant_table(var) ? Uniformity::Uniform
                                                                                : Uniformity::Divergent;
    auto it = variables_.find(var);
    if (it != variables_.end()) return it->second;
    // A local without definitions: a witness or view handle made by a call in its initializer
    // (that case is in definitions_), or an uninitialized variable.
    return Uniformity::Divergent;
  }
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr))
    return uniformity(member->getBase(), depth + 1);
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(expr)) return call_uniformity(call, depth);
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(expr)) {
    if (auto compared = comparison_uniformity(op, depth)) return *compared;
    const Uniformity level = join(uniformity(op->getLHS(), depth + 1), uniformity(op->getRHS(), depth + 1));
    // Asked after the operands, whose forms their uniformity has found by now.
    if (level == Uniformity::Divergent && warp_quotient(op, depth)) return Uniformity::WarpUniform;
    return level;
  }
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(expr))
    return uniformity(op->getSubExpr(), depth + 1);
  if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(expr))
    return uniformity(cast->getSubExpr(), depth + 1);
  if (const auto* conditional = llvm::dyn_cast<clang::ConditionalOperator>(expr))
    return join(uniformity(conditional->getCond(), depth + 1),
                join(uniformity(conditional->getTrueExpr(), depth + 1),
                     uniformity(conditional->getFalseExpr(), depth + 1)));
  if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(expr)) {
    Uniformity level = Uniformity::Uniform;
    for (const clang::Expr* arg : construct->arguments()) level = join(level, uniformity(arg, depth + 1));
    return level;
  }
  if (llvm::isa<clang::CXXBoolLiteralExpr, clang::FloatingLiteral, clang::CXXNullPtrLiteralExpr,
                clang::UnaryExprOrTypeTraitExpr>(expr))
    return Uniformity::Uniform;
  // A closure is as uniform as what it captures.
  if (const auto* lambda = llvm::dyn_cast<clang::LambdaExpr>(expr)) {
    Uniformity level = Uniformity::Uniform;
    for (const clang::Expr* init : lambda->capture_inits())
      if (init != nullptr) level = join(level, uniformity(init, depth + 1));
    return level;
  }
  // The object a member function runs on: its caller's, which the call joins in.
  if (llvm::isa<clang::CXXThisExpr>(expr))
    return parameters_ == Parameters::Uniform ? Uniformity::Uniform : Uniformity::Divergent;
  return Uniformity::Divergent;
}

// A warp is 32 consecutive local indexes from a multiple of 32. In a block of whole warps, the
// local index over a warp runs through 32 values from a multiple of 32, so `lid / 32` is one
// value; where block.x is a multiple of 32 as well, a warp lies within one row, so
// thread_idx().y (with anything uniform beside it: `block_idx().x * 4 + ty`) is one value and
// thread_idx().x runs through 32 values from a multiple of 32 as the local index does.
bool ThreadValues::same_across_warp(const Affine& form) const {
  const auto threads = shape_.threads();
  if (!threads || *threads % 32 != 0) return false;
  const bool rows_of_warps = shape_.extent[0] % 32 == 0;
  if (form.local == 0 && form.x == 0) return rows_of_warps;
  // One index over an aligned 32, shifted by nothing that leaves the alignment, over a multiple
  // of 32; never negative, as C++ divides toward zero (`(lid - 32) / 32` is -1 for lane 0 of
  // warp 0 and 0 for its other lanes).
  const bool aligned_index = (form.local == 1 && form.x == 0 && form.y == 0) ||
                             (rows_of_warps && form.local == 0 && form.x == 1 && form.y % 32 == 0 && form.y >= 0);
  return aligned_index && form.divisor % 32 == 0 && form.constant % 32 == 0 && form.constant >= 0 &&
         form.symbols.empty();
}

// `tx / 32` or `tx >> 5` in rows of whole warps: the affine tier divides only the local index,
// so the quotient of thread_idx().x is judged here.
bool ThreadValues::warp_quotient(const clang::BinaryOperator* op, int depth) const {
  if (op->getOpcode() != clang::BO_Div && op->getOpcode() != clang::BO_Shr) return false;
  const auto by = constant(op->getRHS(), depth + 1);
  if (!by || *by <= 0 || (op->getOpcode() == clang::BO_Shr && *by > 31)) return false;
  const auto numerator = affine(op->getLHS(), depth + 1);
  if (!numerator || numerator->divisor != 1) return false;
  Affine quotient = *numerator;
  quotient.divisor = op->getOpcode() == clang::BO_Div ? *by : std::int64_t(1) << *by;
  return same_across_warp(quotient);
}

// A kernel's arguments are the same for every thread; a helper's may not be. Either way an
// assignment in the body makes the parameter as uniform as what is assigned to it, and a
// parameter of another function (a lambda's, seen from the function that holds it) is unknown.
Uniformity ThreadValues::parameter_uniformity(const clang::ParmVarDecl* parameter) const {
  if (parameter->getDeclContext() != function_) return Uniformity::Divergent;
  const bool uniform = parameters_ == Parameters::Uniform || model::is_kernel(function_);
  if (!uniform) return Uniformity::Divergent;
  auto assigned = variables_.find(parameter);
  return assigned == variables_.end() ? Uniformity::Uniform : assigned->second;
}

Uniformity ThreadValues::body_uniformity(const clang::FunctionDecl* callee) const {
  constexpr int kMaxNesting = 8;
  if (auto found = bodies_.find(callee); found != bodies_.end()) return found->second;
  const clang::FunctionDecl* definition = nullptr;
  Uniformity level = Uniformity::Divergent;
  if (nesting_ < kMaxNesting && callee->hasBody(definition) && definition != function_) {
    bodies_[callee] = Uniformity::Divergent;  // while it is being read: a cycle is not uniform
    const ThreadValues body(context_, definition, shape_, Parameters::Uniform, nesting_ + 1);
    struct Returns : clang::RecursiveASTVisitor<Returns> {
      std::vector<const clang::ReturnStmt*> found;
      bool VisitReturnStmt(clang::ReturnStmt* statement) {
        found.push_back(statement);
        return true;
      }
      bool TraverseLambdaExpr(clang::LambdaExpr*) { return true; }  // a lambda's returns are its own
    } returns;
    returns.TraverseStmt(const_cast<clang::Stmt*>(definition->getBody()));
    level = Uniformity::Uniform;
    for (const clang::ReturnStmt* statement : returns.found) {
      if (statement->getRetValue()) level = join(level, body.uniformity(statement->getRetValue()));
      for (const ControlCondition& condition : body.control().conditions_for(statement))
        level = join(level, body.uniformity(condition.expr));
    }
  }
  bodies_[callee] = level;
  return level;
}

Uniformity ThreadValues::call_uniformity(const clang::CallExpr* call, int depth) const {
  if (auto part = block_stride_parts_.find(call); part != block_stride_parts_.end())
    return uniformity(part->second, depth + 1);
  if (const vocabulary::DeviceFunction* entry = vocabulary::device_function(call)) {
    switch (entry->result) {
      case vocabulary::Sameness::PerBlock: return Uniformity::Uniform;
      case vocabulary::Sameness::PerWarp: return Uniformity::WarpUniform;
      case vocabulary::Sameness::PerThread: return Uniformity::Divergent;
      case vocabulary::Sameness::AsArguments: break;
    }
  }
  if (const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(call)) {
    const clang::CXXMethodDecl* method = member->getMethodDecl();
    if (vocabulary::is_extent_query(method))
      return uniformity(member->getImplicitObjectArgument(), depth + 1);
    // A block-stride index is the same for the whole block where its loop is, a warp's number
    // for its lanes.
    if (method && vocabulary::witness_kind(method->getParent()) == vocabulary::Witness::BlockIndex)
      return uniformity(member->getImplicitObjectArgument(), depth + 1);
    if (method && vocabulary::witness_kind(method->getParent()) == vocabulary::Witness::Warp)
      return join(Uniformity::WarpUniform, uniformity(member->getImplicitObjectArgument(), depth + 1));
    // Witness reads, loads, atomics: values of their own.
    if (method && vocabulary::is_carbide(method->getParent())) return Uniformity::Divergent;
  }
  // View and tile reads.
  if (llvm::isa<clang::CXXOperatorCallExpr>(call) &&
      vocabulary::is_carbide(llvm::dyn_cast_or_null<clang::NamedDecl>(call->getCalleeDecl())))
    return Uniformity::Divergent;
  // Any other function: as uniform as its arguments (the object of a member call among them),
  // and, for one whose body is the user's, as what its body adds to them (`thread_idx().x < 16`
  // returned by a helper with no argument is no more uniform than it is in place).
  Uniformity level = Uniformity::Uniform;
  for (const clang::Expr* arg : call->arguments()) level = join(level, uniformity(arg, depth + 1));
  if (const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(call))
    level = join(level, uniformity(member->getImplicitObjectArgument(), depth + 1));
  const clang::FunctionDecl* callee = call->getDirectCallee();
  if (callee == nullptr) return Uniformity::Divergent;  // through a pointer: unknown
  if (model::in_user_code(context_.getSourceManager(), callee)) level = join(level, body_uniformity(callee));
  return level;
}

namespace {

// An affine form's value for the thread at (x, y) with flat local index L, or nothing when it
// depends on more than the thread's coordinates, or divides a negative value (where C++'s
// truncation and the form's meaning could part).
std::optional<std::int64_t> value_for_thread(const Affine& form, std::int64_t x, std::int64_t y,
                                             std::int64_t local) {
  if (!form.symbols.empty() || form.divisor <= 0) return std::nullopt;
  const std::int64_t numerator = form.local * local + form.x * x + form.y * y + form.constant;
  if (form.divisor != 1 && numerator < 0) return std::nullopt;
  return numerator / form.divisor;
}

bool compare(clang::BinaryOperatorKind kind, std::int64_t a, std::int64_t b) {
  switch (kind) {
    case clang::BO_LT: return a < b;
    case clang::BO_GT: return a > b;
    case clang::BO_LE: return a <= b;
    case clang::BO_GE: return a >= b;
    case clang::BO_EQ: return a == b;
    default: return a != b;
  }
}

// The most threads a block can have; an exact shape has been validated against it.
constexpr std::uint64_t kMaxBlockThreads = 1024;

}  // namespace

// A comparison of thread coordinates is uniform by its value, not its spelling: with the block's
// exact shape known, it is evaluated for every thread. The same result in the whole block is
// Uniform (`tid < 128` in a block of 128), the same within each warp WarpUniform (`tid < 32`
// with tid = ty * 32 + tx, `ty < 4` in a block 32 wide); otherwise Divergent. Nothing when a side
// is no affine form of the coordinates, or an unsigned comparison would see a wrapped value.
std::optional<Uniformity> ThreadValues::comparison_uniformity(const clang::BinaryOperator* op,
                                                              int depth) const {
  if (!op->isRelationalOp() && !op->isEqualityOp()) return std::nullopt;
  const auto threads = shape_.threads();
  if (!threads || *threads > kMaxBlockThreads) return std::nullopt;
  const auto lhs = affine(op->getLHS(), depth + 1);
  const auto rhs = affine(op->getRHS(), depth + 1);
  if (!lhs || !rhs || (!lhs->varies_by_thread() && !rhs->varies_by_thread())) return std::nullopt;
  const clang::QualType compared = op->getLHS()->getType();
  const bool is_unsigned = compared->isUnsignedIntegerType();
  const std::uint64_t width = context_.getTypeSize(compared);
  const auto representable = [&](std::int64_t value) {
    return !is_unsigned || (value >= 0 && (width >= 63 || (std::uint64_t(value) >> width) == 0));
  };
  std::optional<bool> block_result, warp_result;
  bool same_in_block = true, same_in_warps = true;
  std::int64_t local = 0;
  for (std::uint64_t z = 0; z < shape_.extent[2]; ++z)
    for (std::uint64_t y = 0; y < shape_.extent[1]; ++y)
      for (std::uint64_t x = 0; x < shape_.extent[0]; ++x, ++local) {
        const auto a = value_for_thread(*lhs, std::int64_t(x), std::int64_t(y), local);
        const auto b = value_for_thread(*rhs, std::int64_t(x), std::int64_t(y), local);
        if (!a || !b || !representable(*a) || !representable(*b)) return std::nullopt;
        const bool result = compare(op->getOpcode(), *a, *b);
        if (local % 32 == 0) warp_result = result;
        same_in_warps = same_in_warps && result == *warp_result;
        if (!block_result) block_result = result;
        same_in_block = same_in_block && result == *block_result;
      }
  if (same_in_block) return Uniformity::Uniform;
  return same_in_warps ? Uniformity::WarpUniform : Uniformity::Divergent;
}

std::optional<Affine> ThreadValues::affine(const clang::Expr* expr) const { return affine(expr, 0); }

std::optional<Affine> ThreadValues::affine(const clang::Expr* expr, int depth) const {
  // An integer that is no other form is a symbol when it is uniform, and uniformity asks for the
  // affine form first: asked again from there, the answer is "no form" (which is what it is).
  if (affine_in_progress_.count(expr)) return std::nullopt;
  return memoized(affine_cache_, expr, depth, std::optional<Affine>(), [&] {
    affine_in_progress_.insert(expr);
    auto form = compute_affine(expr, depth);
    affine_in_progress_.erase(expr);
    return form;
  });
}

namespace {

// The form as the expression's type computes it. An unsigned type narrower than 64 bits wraps, so
// a coefficient or constant in the upper half of its range is the negative number it stands for
// (`lid + (0u - 1u)` is lid - 1, not lid + 4294967295); one past the type's range leaves the
// expression to the solver, which models widths. With a divisor, any such change gives up too:
// the division of the wrapped value is another.
std::optional<Affine> at_type_width(Affine form, clang::QualType type, const clang::ASTContext& context) {
  if (!type->isUnsignedIntegerOrEnumerationType()) return form;
  const unsigned width = context.getIntWidth(type);
  if (width >= 64) return form;
  const std::int64_t modulus = std::int64_t(1) << width, half = modulus / 2;
  bool changed = false;
  auto normalize = [&](std::int64_t& value) {
    if (value >= modulus || value < -half) return false;
    if (value >= half) {
      value -= modulus;
      changed = true;
    }
    return true;
  };
  if (!normalize(form.local) || !normalize(form.x) || !normalize(form.y) || !normalize(form.constant))
    return std::nullopt;
  for (auto& [name, coefficient] : form.symbols)
    if (!normalize(coefficient)) return std::nullopt;
  if (changed && form.divisor != 1) return std::nullopt;
  return form;
}

}  // namespace

std::optional<Affine> ThreadValues::compute_affine(const clang::Expr* expr, int depth) const {
  expr = strip_widening(expr, context_);
  auto form = form_as_written(expr, depth);
  if (!form) return form;
  return at_type_width(*form, expr->getType(), context_);
}

std::optional<Affine> ThreadValues::form_as_written(const clang::Expr* expr, int depth) const {
  if (!expr->getType()->isIntegralOrEnumerationType() && !expr->getType()->isDependentType() &&
      !llvm::isa<clang::CXXMemberCallExpr>(expr))
    return std::nullopt;
  if (auto value = constant(expr)) {
    Affine constant;
    constant.constant = *value;
    return constant;
  }
  if (vocabulary::is_witness_read(expr, vocabulary::Witness::Local)) {
    Affine local;
    local.local = 1;
    return local;
  }
  // thread_idx().x is L in a one-dimensional block; in a 2-D block, x and y are terms of their own.
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr);
      member && vocabulary::dim3_source(member->getBase()) == vocabulary::Dim3::ThreadIdx) {
    const llvm::StringRef axis = member->getMemberDecl()->getName();
    Affine coordinate;
    const bool flat = shape_.known() && shape_.extent[2] == 1;
    if (shape_.one_dimensional() && axis == "x") coordinate.local = 1;
    else if (flat && axis == "x") coordinate.x = 1;
    else if (flat && axis == "y") coordinate.y = 1;
    if (coordinate.varies_by_thread()) return coordinate;
  }
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(expr)) {
    auto lhs = affine(op->getLHS(), depth + 1);
    auto rhs = affine(op->getRHS(), depth + 1);
    switch (op->getOpcode()) {
      case clang::BO_Add:
      case clang::BO_Sub:
        if (lhs && rhs && lhs->divisor == 1 && rhs->divisor == 1)
          return lhs->plus(*rhs, op->getOpcode() == clang::BO_Add ? 1 : -1);
        break;
      case clang::BO_Mul:
        if (lhs && rhs && lhs->divisor == 1 && rhs->divisor == 1) {
          if (rhs->is_constant()) return lhs->scaled(rhs->constant);
          if (lhs->is_constant()) return rhs->scaled(lhs->constant);
        }
        break;
      case clang::BO_Div:
      case clang::BO_Shr:
        // Unsigned: a negative term stands for a wrapped value, whose quotient is another.
        if (op->getType()->isUnsignedIntegerOrEnumerationType() && lhs && (lhs->constant < 0 || lhs->local < 0))
          break;
        if (lhs && rhs && rhs->is_constant() && lhs->divisor == 1 && lhs->local != 0 &&
            lhs->x == 0 && lhs->y == 0) {
          const std::int64_t by = op->getOpcode() == clang::BO_Div ? rhs->constant
                                                                    : (std::int64_t(1) << rhs->constant);
          if (by > 0) {
            Affine divided = *lhs;
            divided.divisor = by;
            return divided;
          }
        }
        break;
      default:
        break;
    }
  }
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    if (const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl())) {
      auto it = definitions_.find(var);
      // A local with one definition stands for it: `auto l = lid.get(); tile[l]`.
      if (it != definitions_.end() && it->second.size() == 1 && var->isLocalVarDecl() && !escapes(var))
        if (auto form = affine(it->second.front(), depth + 1)) return form;
    }
  }
  // Any other block-uniform integer is a symbol of its own.
  if (uniformity(expr, depth + 1) == Uniformity::Uniform) {
    std::string key;
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr))
      key = symbol_key(ref->getDecl());
    else
      key = std::to_string(expr->getID(context_));
    Affine symbol;
    symbol.symbols[key] = 1;
    return symbol;
  }
  return std::nullopt;
}

}  // namespace carbide::analysis
