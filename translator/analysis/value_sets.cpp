#include "analysis/value_sets.hpp"

namespace carbide::analysis {
namespace {

const clang::VarDecl* local_variable(const clang::Expr* expr) {
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
  const auto* var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var && var->isLocalVarDecl() && var->getType()->isIntegralOrEnumerationType() ? var : nullptr;
}

// The integer type that holds `type`'s values: an enumeration's underlying type.
clang::QualType integer_type(clang::QualType type) {
  if (const auto* enumeration = type->getAs<clang::EnumType>()) return enumeration->getDecl()->getIntegerType();
  return type;
}

// Integers of at most 64 bits (bool among them): those evaluated.
bool evaluated_type(clang::QualType type, const clang::ASTContext& context) {
  const clang::QualType integer = integer_type(type);
  return !integer.isNull() && integer->isIntegerType() && context.getIntWidth(integer) <= 64;
}

// `value` converted to `type` as C++ converts it: to bool, whether it is non-zero; to another
// integer, wrapped to its width and read with its signedness.
llvm::APSInt converted(const llvm::APSInt& value, clang::QualType type, const clang::ASTContext& context) {
  const clang::QualType integer = integer_type(type);
  if (integer->isBooleanType()) return llvm::APSInt(llvm::APInt(1, value.isZero() ? 0 : 1), /*isUnsigned=*/true);
  llvm::APSInt result = value.extOrTrunc(unsigned(context.getIntWidth(integer)));
  result.setIsUnsigned(!integer->isSignedIntegerType());
  return result;
}

// A constant as ThreadValues gives it (its bits, extended to 64), as `type` holds it.
llvm::APSInt constant_as(std::int64_t value, clang::QualType type, const clang::ASTContext& context) {
  return converted(llvm::APSInt(llvm::APInt(64, std::uint64_t(value)), /*isUnsigned=*/false), type, context);
}

// `a op b` in the operation's result type `type`, which both operands already have (but for a
// shift's right operand); none for an operator not evaluated or a shift past the width.
std::optional<llvm::APSInt> apply(clang::BinaryOperatorKind op, const llvm::APSInt& a, const llvm::APSInt& b,
                                  clang::QualType type, const clang::ASTContext& context) {
  const llvm::APSInt left = converted(a, type, context);
  if (op == clang::BO_Shl || op == clang::BO_Shr) {
    const unsigned width = left.getBitWidth();
    if (b.isNegative() || b.getLimitedValue(width) >= width) return std::nullopt;
    const unsigned amount = unsigned(b.getZExtValue());
    return op == clang::BO_Shl ? left << amount : left >> amount;  // >> is arithmetic when signed
  }
  const llvm::APSInt right = converted(b, type, context);
  switch (op) {
    case clang::BO_Add: return left + right;
    case clang::BO_Sub: return left - right;
    case clang::BO_Mul: return left * right;
    case clang::BO_And: return left & right;
    case clang::BO_Or: return left | right;
    case clang::BO_Xor: return left ^ right;
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

std::optional<ValueSets::Held> ValueSets::evaluate(const clang::Expr* expr, const Sets& sets) const {
  const clang::ASTContext& context = values_.context();
  if (!evaluated_type(expr->getType(), context)) return std::nullopt;
  if (auto known = values_.constant(expr)) return Held{constant_as(*known, expr->getType(), context)};
  expr = expr->IgnoreParens();
  if (llvm::isa<clang::DeclRefExpr>(expr)) {
    const auto found = sets.find(local_variable(expr));
    return found == sets.end() ? std::nullopt : std::optional(found->second);
  }
  if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(expr)) return evaluate_conversion(cast, sets);
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(expr)) return evaluate_binary(op, sets);
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(expr)) return evaluate_unary(op, sets);
  if (const auto* choice = llvm::dyn_cast<clang::ConditionalOperator>(expr)) {
    auto yes = evaluate(choice->getTrueExpr(), sets), no = evaluate(choice->getFalseExpr(), sets);
    if (!yes || !no) return std::nullopt;
    yes->insert(no->begin(), no->end());
    return yes;
  }
  return std::nullopt;
}

// Only the conversions between integers, each exact; a value read from a variable is as held.
std::optional<ValueSets::Held> ValueSets::evaluate_conversion(const clang::CastExpr* cast, const Sets& sets) const {
  switch (cast->getCastKind()) {
    case clang::CK_LValueToRValue:
    case clang::CK_NoOp:
    case clang::CK_IntegralCast:
    case clang::CK_IntegralToBoolean:
      break;
    default:
      return std::nullopt;
  }
  const auto operand = evaluate(cast->getSubExpr(), sets);
  if (!operand) return std::nullopt;
  Held result;
  for (const llvm::APSInt& value : *operand) result.insert(converted(value, cast->getType(), values_.context()));
  return result;
}

std::optional<ValueSets::Held> ValueSets::evaluate_binary(const clang::BinaryOperator* op, const Sets& sets) const {
  if (op->isAssignmentOp()) return std::nullopt;  // its variable's own definition gives its values
  const auto left = evaluate(op->getLHS(), sets), right = evaluate(op->getRHS(), sets);
  if (!left || !right) return std::nullopt;
  Held result;
  for (const llvm::APSInt& a : *left)
    for (const llvm::APSInt& b : *right) {
      auto value = apply(op->getOpcode(), a, b, op->getType(), values_.context());
      if (!value) return std::nullopt;
      result.insert(*value);
      if (result.size() > kLimit) return std::nullopt;
    }
  return result;
}

std::optional<ValueSets::Held> ValueSets::evaluate_unary(const clang::UnaryOperator* op, const Sets& sets) const {
  if (op->getOpcode() != clang::UO_Minus && op->getOpcode() != clang::UO_Not) return std::nullopt;
  const auto operand = evaluate(op->getSubExpr(), sets);
  if (!operand) return std::nullopt;
  Held result;
  for (const llvm::APSInt& a : *operand) {
    const llvm::APSInt value = converted(a, op->getType(), values_.context());
    result.insert(op->getOpcode() == clang::UO_Minus ? -value : ~value);
  }
  return result;
}

// `v op= x`: every value v had, brought to the operation's type, combined with every x, and the
// result brought back to v's type.
std::optional<ValueSets::Held> ValueSets::compound_assigned(const clang::CompoundAssignOperator* op,
                                                            const clang::VarDecl* var, const Sets& sets) const {
  const clang::ASTContext& context = values_.context();
  const clang::QualType computed = op->getComputationResultType();
  if (!evaluated_type(op->getComputationLHSType(), context) || !evaluated_type(computed, context)) return std::nullopt;
  const auto right = evaluate(op->getRHS(), sets);
  if (!right) return std::nullopt;
  Held result;
  for (const llvm::APSInt& a : sets.at(var))
    for (const llvm::APSInt& b : *right) {
      const llvm::APSInt promoted = converted(a, op->getComputationLHSType(), context);
      auto value = apply(clang::BinaryOperator::getOpForCompoundAssignment(op->getOpcode()), promoted, b, computed,
                         context);
      if (!value) return std::nullopt;
      result.insert(converted(*value, var->getType(), context));
    }
  return result;
}

std::optional<ValueSets::Held> ValueSets::defined(const clang::Stmt* site, const clang::VarDecl* var,
                                                  const Sets& sets) const {
  const clang::ASTContext& context = values_.context();
  std::optional<Held> result;
  if (site == var->getInit()) {
    result = evaluate(var->getInit(), sets);
  } else if (const auto* op = llvm::dyn_cast<clang::CompoundAssignOperator>(site)) {
    result = compound_assigned(op, var, sets);
  } else if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(site)) {
    result = evaluate(op->getRHS(), sets);
  } else if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(site)) {
    result.emplace();
    for (const llvm::APSInt& a : sets.at(var)) {
      const llvm::APSInt one(llvm::APInt(a.getBitWidth(), 1), a.isUnsigned());
      result->insert(op->isIncrementOp() ? a + one : a - one);
    }
  }
  if (!result) return std::nullopt;
  Held fitted;
  for (const llvm::APSInt& value : *result) fitted.insert(converted(value, var->getType(), context));
  return fitted;
}

std::optional<std::set<std::int64_t>> ValueSets::of(const clang::VarDecl* var) const {
  std::set<const clang::VarDecl*> group;
  if (!collect(var, group)) return std::nullopt;
  Sets sets;
  for (const clang::VarDecl* member : group) {
    if (!evaluated_type(member->getType(), values_.context())) return std::nullopt;
    sets[member];
  }
  // Each round can only add values, and past kLimit we stop: it ends.
  for (bool changed = true; changed;) {
    changed = false;
    for (const clang::VarDecl* member : group)
      for (const clang::Stmt* site : values_.definition_sites(member)) {
        auto values = defined(site, member, sets);
        if (!values) return std::nullopt;
        for (const llvm::APSInt& value : *values) changed = sets[member].insert(value).second || changed;
        if (sets[member].size() > kLimit) return std::nullopt;
      }
  }
  std::set<std::int64_t> values;
  for (const llvm::APSInt& value : sets.at(var)) {
    if (!value.isRepresentableByInt64()) return std::nullopt;  // an unsigned 64-bit value past 2^63
    values.insert(value.getExtValue());
  }
  return values;
}

}  // namespace carbide::analysis
