#include "analysis/value_sets.hpp"

namespace carbide::analysis {
namespace {

const clang::VarDecl* local_variable(const clang::Expr* expr) {
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
  const auto* var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var && var->isLocalVarDecl() && var->getType()->isIntegralOrEnumerationType() ? var : nullptr;
}

// `value` as `type` holds it: wrapped to its width, read as signed or unsigned.
std::int64_t fit(std::int64_t value, clang::QualType type, const clang::ASTContext& context) {
  const unsigned width = unsigned(context.getIntWidth(type));
  if (width >= 64) return value;
  const std::uint64_t mask = (std::uint64_t(1) << width) - 1;
  std::uint64_t bits = std::uint64_t(value) & mask;
  if (type->isSignedIntegerOrEnumerationType() && (bits >> (width - 1)) != 0) bits |= ~mask;
  return std::int64_t(bits);
}

std::optional<std::int64_t> apply(clang::BinaryOperatorKind op, std::int64_t a, std::int64_t b) {
  switch (op) {
    case clang::BO_Add: case clang::BO_AddAssign: return std::int64_t(std::uint64_t(a) + std::uint64_t(b));
    case clang::BO_Sub: case clang::BO_SubAssign: return std::int64_t(std::uint64_t(a) - std::uint64_t(b));
    case clang::BO_Mul: case clang::BO_MulAssign: return std::int64_t(std::uint64_t(a) * std::uint64_t(b));
    case clang::BO_And: case clang::BO_AndAssign: return a & b;
    case clang::BO_Or: case clang::BO_OrAssign: return a | b;
    case clang::BO_Xor: case clang::BO_XorAssign: return a ^ b;
    case clang::BO_Shl: case clang::BO_ShlAssign:
      if (b < 0 || b > 62) return std::nullopt;
      return std::int64_t(std::uint64_t(a) << b);
    case clang::BO_Shr: case clang::BO_ShrAssign:
      if (b < 0 || b > 62) return std::nullopt;
      return a >> b;
    default: return std::nullopt;
  }
}

}  // namespace

bool ValueSets::reads_only_group(const clang::Expr* expr, std::set<const clang::VarDecl*>& group) const {
  if (values_.constant(expr)) return true;
  if (const clang::VarDecl* var = local_variable(expr)) return collect(var, group);
  const clang::Expr* bare = expr->IgnoreParenImpCasts();
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(bare))
    return reads_only_group(op->getLHS(), group) && reads_only_group(op->getRHS(), group);
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(bare))
    return (op->getOpcode() == clang::UO_Minus || op->getOpcode() == clang::UO_Not) &&
           reads_only_group(op->getSubExpr(), group);
  if (const auto* choice = llvm::dyn_cast<clang::ConditionalOperator>(bare))
    return reads_only_group(choice->getTrueExpr(), group) && reads_only_group(choice->getFalseExpr(), group);
  return false;
}

bool ValueSets::collect(const clang::VarDecl* var, std::set<const clang::VarDecl*>& group) const {
  if (!group.insert(var).second) return true;
  const auto sites = values_.definition_sites(var);
  if (sites.empty()) return false;
  for (const clang::Stmt* site : sites) {
    if (const auto* value = llvm::dyn_cast<clang::Expr>(site); value && site == var->getInit()) {
      if (!reads_only_group(value, group)) return false;
    } else if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(site)) {
      if (!reads_only_group(op->getRHS(), group)) return false;
    } else if (!llvm::isa<clang::UnaryOperator>(site)) {
      return false;
    }
  }
  return true;
}

std::optional<std::set<std::int64_t>> ValueSets::evaluate(const clang::Expr* expr, const Sets& sets) const {
  const clang::ASTContext& context = values_.context();
  if (auto known = values_.constant(expr)) return std::set<std::int64_t>{*known};
  if (const clang::VarDecl* var = local_variable(expr)) {
    std::set<std::int64_t> converted;
    for (std::int64_t value : sets.at(var)) converted.insert(fit(value, expr->getType(), context));
    return converted;
  }
  const clang::Expr* bare = expr->IgnoreParenImpCasts();
  std::set<std::int64_t> result;
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(bare)) {
    auto left = evaluate(op->getLHS(), sets), right = evaluate(op->getRHS(), sets);
    if (!left || !right) return std::nullopt;
    for (std::int64_t a : *left)
      for (std::int64_t b : *right) {
        auto value = apply(op->getOpcode(), a, b);
        if (!value) return std::nullopt;
        result.insert(fit(*value, op->getType(), context));
        if (result.size() > kLimit) return std::nullopt;
      }
    return result;
  }
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(bare)) {
    auto operand = evaluate(op->getSubExpr(), sets);
    if (!operand) return std::nullopt;
    for (std::int64_t a : *operand)
      result.insert(fit(op->getOpcode() == clang::UO_Minus ? -a : ~a, op->getType(), context));
    return result;
  }
  if (const auto* choice = llvm::dyn_cast<clang::ConditionalOperator>(bare)) {
    auto yes = evaluate(choice->getTrueExpr(), sets), no = evaluate(choice->getFalseExpr(), sets);
    if (!yes || !no) return std::nullopt;
    yes->insert(no->begin(), no->end());
    return yes;
  }
  return std::nullopt;
}

std::optional<std::set<std::int64_t>> ValueSets::defined(const clang::Stmt* site, const clang::VarDecl* var,
                                                         const Sets& sets) const {
  std::optional<std::set<std::int64_t>> result;
  if (site == var->getInit()) {
    result = evaluate(var->getInit(), sets);
  } else if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(site)) {
    auto right = evaluate(op->getRHS(), sets);
    if (!right || op->getOpcode() == clang::BO_Assign) {
      result = right;
    } else {  // `v op= x`: every value v had, combined with every x
      result.emplace();
      for (std::int64_t a : sets.at(var))
        for (std::int64_t b : *right) {
          auto value = apply(op->getOpcode(), a, b);
          if (!value) return std::nullopt;
          result->insert(*value);
        }
    }
  } else if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(site)) {
    result.emplace();
    for (std::int64_t a : sets.at(var)) result->insert(op->isIncrementOp() ? a + 1 : a - 1);
  }
  if (!result) return std::nullopt;
  std::set<std::int64_t> fitted;
  for (std::int64_t value : *result) fitted.insert(fit(value, var->getType(), values_.context()));
  return fitted;
}

std::optional<std::set<std::int64_t>> ValueSets::of(const clang::VarDecl* var) const {
  std::set<const clang::VarDecl*> group;
  if (!collect(var, group)) return std::nullopt;
  Sets sets;
  for (const clang::VarDecl* member : group) sets[member];
  // Each round can only add values, and past kLimit we stop: it ends.
  for (bool changed = true; changed;) {
    changed = false;
    for (const clang::VarDecl* member : group)
      for (const clang::Stmt* site : values_.definition_sites(member)) {
        auto values = defined(site, member, sets);
        if (!values) return std::nullopt;
        for (std::int64_t value : *values) changed = sets[member].insert(value).second || changed;
        if (sets[member].size() > kLimit) return std::nullopt;
      }
  }
  return sets.at(var);
}

}  // namespace carbide::analysis
