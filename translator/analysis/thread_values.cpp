#include "analysis/thread_values.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <llvm/ADT/StringRef.h>

#include <set>

namespace carbide::analysis {
namespace {

constexpr int kMaxDepth = 12;

const clang::Expr* strip(const clang::Expr* expr) {
  return expr->IgnoreParenImpCasts()->IgnoreImplicit()->IgnoreParenImpCasts();
}

bool starts_with(const std::string& text, llvm::StringRef prefix) {
  return llvm::StringRef(text).starts_with(prefix);
}

// Collects each local variable's definitions.
class DefinitionCollector : public clang::RecursiveASTVisitor<DefinitionCollector> {
 public:
  std::map<const clang::VarDecl*, std::vector<const clang::Expr*>> definitions;
  std::map<const clang::VarDecl*, std::vector<const clang::Stmt*>> sites;

  bool VisitVarDecl(clang::VarDecl* var) {
    if (var->isLocalVarDecl() && var->getInit()) add(var, var->getInit(), var->getInit());
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
  void add_target(const clang::Expr* target, const clang::Expr* value, const clang::Stmt* site) {
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(target->IgnoreParenImpCasts()))
      if (const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl())) add(var, value, site);
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

bool is_witness_get(const clang::Expr* expr, llvm::StringRef witness) {
  const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr);
  return call && call->getMethodDecl() && call->getMethodDecl()->getIdentifier() &&
         call->getMethodDecl()->getName() == "get" &&
         call->getMethodDecl()->getParent()->getQualifiedNameAsString() == witness;
}

bool is_local_witness(const clang::Expr* expr) {
  const clang::CXXRecordDecl* type = expr->getType()->getAsCXXRecordDecl();
  return type && type->getQualifiedNameAsString() == "carbide::thread::local_index_witness";
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

std::string callee_name(const clang::Expr* expr) {
  const auto* call = llvm::dyn_cast<clang::CallExpr>(strip(expr));
  if (call == nullptr) return "";
  if (const clang::FunctionDecl* callee = call->getDirectCallee())
    return callee->getQualifiedNameAsString();
  return "";
}

ThreadValues::ThreadValues(clang::ASTContext& context, const clang::FunctionDecl* function,
                           BlockShape shape)
    : context_(context), function_(function), shape_(shape),
      parents_(const_cast<clang::Stmt*>(function->getBody())) {
  DefinitionCollector collector;
  collector.TraverseStmt(const_cast<clang::Stmt*>(function->getBody()));
  definitions_ = std::move(collector.definitions);
  definition_sites_ = std::move(collector.sites);
  compute_variable_uniformity();
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
      for (const Condition& condition : conditions_for(var->getInit()))
        scope_conditions[var].insert(condition.expr);
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [var, defs] : definitions_) {
      Uniformity level = Uniformity::Uniform;
      for (const clang::Expr* def : defs) level = join(level, uniformity(def, 0));
      for (const clang::Stmt* site : definition_sites_[var])
        for (const Condition& condition : conditions_for(site))
          if (!scope_conditions[var].count(condition.expr))
            level = join(level, uniformity(condition.expr, 0));
      if (level != variables_[var]) {
        variables_[var] = join(level, variables_[var]);
        changed = true;
      }
    }
  }
}

Uniformity ThreadValues::uniformity(const clang::Expr* expr) const { return uniformity(expr, 0); }

Uniformity ThreadValues::uniformity(const clang::Expr* expr, int depth) const {
  if (depth > kMaxDepth) return Uniformity::Divergent;
  expr = strip(expr);
  if (constant_of(expr, context_)) return Uniformity::Uniform;
  // `lid.get() / 32` is the same for a whole warp when blocks are made of whole warps.
  if (auto form = affine(expr, depth); form && form->varies_by_thread()) {
    const auto threads = shape_.threads();
    const bool whole_warps = threads && *threads % 32 == 0;
    if (whole_warps && form->local == 1 && form->divisor % 32 == 0 && form->constant % 32 == 0 &&
        form->symbols.empty())
      return Uniformity::WarpUniform;
    return Uniformity::Divergent;
  }
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    const clang::ValueDecl* decl = ref->getDecl();
    if (llvm::isa<clang::EnumConstantDecl, clang::FunctionDecl, clang::NonTypeTemplateParmDecl>(decl))
      return Uniformity::Uniform;
    const auto* var = llvm::dyn_cast<clang::VarDecl>(decl);
    if (var == nullptr) return Uniformity::Divergent;
    if (llvm::isa<clang::ParmVarDecl>(var)) {
      // A kernel's arguments are the same for every thread; a helper's may not be.
      for (const auto* attr : function_->specific_attrs<clang::AnnotateAttr>())
        if (attr->getAnnotation() == "carbide.kernel") return Uniformity::Uniform;
      return Uniformity::Divergent;
    }
    if (var->hasGlobalStorage()) return var->getType().isConstQualified() ? Uniformity::Uniform
                                                                          : Uniformity::Divergent;
    auto it = variables_.find(var);
    if (it != variables_.end()) return it->second;
    // A local without definitions: a witness or view handle made by a call in its initializer
    // (that case is in definitions_), or an uninitialized variable.
    return Uniformity::Divergent;
  }
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr))
    return uniformity(member->getBase(), depth + 1);
  if (llvm::isa<clang::CallExpr>(expr)) {
    const auto* call = llvm::cast<clang::CallExpr>(expr);
    const std::string name = callee_name(call);
    if (name == "carbide::thread::block_idx" || name == "carbide::thread::block_dim" ||
        name == "carbide::thread::grid_dim" || starts_with(name, "carbide::block::shared"))
      return Uniformity::Uniform;
    if (starts_with(name, "carbide::thread::") || starts_with(name, "carbide::warp::shfl"))
      return Uniformity::Divergent;
    if (name == "carbide::warp::reduce_add" || name == "carbide::warp::ballot" ||
        name == "carbide::warp::any" || name == "carbide::warp::all")
      return Uniformity::WarpUniform;
    if (const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(call)) {
      const clang::CXXMethodDecl* method = member->getMethodDecl();
      const std::string owner = method ? method->getParent()->getQualifiedNameAsString() : "";
      const llvm::StringRef method_name = method ? method->getName() : "";
      if (starts_with(owner, "carbide::thread::")) return Uniformity::Divergent;  // witnesses
      if (method_name == "size" || method_name == "rows" || method_name == "cols" ||
          method_name == "pitch")
        return uniformity(member->getImplicitObjectArgument(), depth + 1);
      if (starts_with(owner, "carbide::")) return Uniformity::Divergent;  // loads, atomics
    }
    if (llvm::isa<clang::CXXOperatorCallExpr>(call)) {
      const std::string owner = callee_name(call);
      if (starts_with(owner, "carbide::")) return Uniformity::Divergent;  // view and tile reads
    }
    // Any other function: as uniform as its arguments.
    Uniformity level = Uniformity::Uniform;
    for (const clang::Expr* arg : call->arguments()) level = join(level, uniformity(arg, depth + 1));
    return level;
  }
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(expr))
    return join(uniformity(op->getLHS(), depth + 1), uniformity(op->getRHS(), depth + 1));
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(expr))
    return uniformity(op->getSubExpr(), depth + 1);
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
  return Uniformity::Divergent;
}

std::optional<Affine> ThreadValues::affine(const clang::Expr* expr) const { return affine(expr, 0); }

std::optional<Affine> ThreadValues::affine(const clang::Expr* expr, int depth) const {
  if (depth > kMaxDepth) return std::nullopt;
  expr = strip(expr);
  if (!expr->getType()->isIntegralOrEnumerationType() && !expr->getType()->isDependentType() &&
      !llvm::isa<clang::CXXMemberCallExpr>(expr))
    return std::nullopt;
  if (auto value = constant_of(expr, context_)) {
    Affine constant;
    constant.constant = *value;
    return constant;
  }
  if (is_witness_get(expr, "carbide::thread::local_index_witness")) {
    Affine local;
    local.local = 1;
    return local;
  }
  // thread_idx().x is L in a one-dimensional block; in a 2-D block, x and y are terms of their own.
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr);
      member && callee_name(member->getBase()) == "carbide::thread::thread_idx") {
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
      if (it != definitions_.end() && it->second.size() == 1 && var->isLocalVarDecl())
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

std::vector<ThreadValues::Condition> ThreadValues::conditions_for(const clang::Stmt* statement) const {
  std::vector<Condition> conditions;
  const clang::Stmt* child = statement;
  for (const clang::Stmt* parent = parents_.getParent(child); parent != nullptr;
       child = parent, parent = parents_.getParent(child)) {
    if (const auto* branch = llvm::dyn_cast<clang::IfStmt>(parent)) {
      if (child == branch->getThen()) conditions.push_back({branch->getCond(), true, nullptr});
      else if (child == branch->getElse()) conditions.push_back({branch->getCond(), false, nullptr});
    } else if (const auto* loop = llvm::dyn_cast<clang::ForStmt>(parent)) {
      if (loop->getCond() && child != loop->getInit()) conditions.push_back({loop->getCond(), true, nullptr});
    } else if (const auto* loop = llvm::dyn_cast<clang::WhileStmt>(parent)) {
      conditions.push_back({loop->getCond(), true, nullptr});
    } else if (const auto* loop = llvm::dyn_cast<clang::DoStmt>(parent)) {
      conditions.push_back({loop->getCond(), true, nullptr});
    } else if (const auto* conditional = llvm::dyn_cast<clang::ConditionalOperator>(parent)) {
      if (child == conditional->getTrueExpr()) conditions.push_back({conditional->getCond(), true, nullptr});
      else if (child == conditional->getFalseExpr()) conditions.push_back({conditional->getCond(), false, nullptr});
    } else if (const auto* logical = llvm::dyn_cast<clang::BinaryOperator>(parent)) {
      if (logical->getOpcode() == clang::BO_LAnd && child == logical->getRHS())
        conditions.push_back({logical->getLHS(), true, nullptr});
      else if (logical->getOpcode() == clang::BO_LOr && child == logical->getRHS())
        conditions.push_back({logical->getLHS(), false, nullptr});
    } else if (const auto* block = llvm::dyn_cast<clang::CompoundStmt>(parent)) {
      // `if (c) return;` earlier in the block: only threads for which c failed get here.
      for (const clang::Stmt* sibling : block->body()) {
        if (sibling == child) break;
        const auto* guard = llvm::dyn_cast<clang::IfStmt>(sibling);
        if (guard == nullptr || guard->getElse() != nullptr) continue;
        const clang::Stmt* then = guard->getThen();
        if (const auto* inner = llvm::dyn_cast<clang::CompoundStmt>(then); inner && inner->size() == 1)
          then = inner->body_front();
        if (llvm::isa<clang::ReturnStmt>(then)) conditions.push_back({guard->getCond(), false, then});
      }
    }
  }
  return conditions;
}

}  // namespace carbide::analysis
