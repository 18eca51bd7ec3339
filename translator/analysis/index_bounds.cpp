#include "analysis/index_bounds.hpp"

#include "model/vocabulary.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/Support/MathExtras.h>

#include <algorithm>
#include <limits>

namespace carbide::analysis {

std::optional<IndexRange> fitted(std::optional<IndexRange> range, clang::QualType type,
                                 const clang::ASTContext& context) {
  if (!range || !type->isIntegralOrEnumerationType() || type->isBooleanType()) return std::nullopt;
  const unsigned bits = unsigned(context.getTypeSize(type));
  if (bits > 64) return std::nullopt;
  const bool is_signed = type->isSignedIntegerOrEnumerationType();
  const __int128 one = 1;
  const __int128 low = is_signed ? -(one << (bits - 1)) : 0;
  const __int128 high = is_signed ? (one << (bits - 1)) - 1 : (one << bits) - 1;
  if (range->low < low || range->high > high) return std::nullopt;
  return range;
}

namespace {

constexpr int kMaxDepth = 16;

std::optional<IndexRange> combine(clang::BinaryOperatorKind op, IndexRange a, IndexRange b) {
  switch (op) {
    case clang::BO_Add: return IndexRange{a.low + b.low, a.high + b.high};
    case clang::BO_Sub: return IndexRange{a.low - b.high, a.high - b.low};
    case clang::BO_Mul: {
      const __int128 corners[] = {a.low * b.low, a.low * b.high, a.high * b.low, a.high * b.high};
      return IndexRange{*std::min_element(corners, corners + 4), *std::max_element(corners, corners + 4)};
    }
    case clang::BO_Div:
      if (a.low < 0 || b.low <= 0) return std::nullopt;
      return IndexRange{a.low / b.high, a.high / b.low};
    case clang::BO_Rem:
      if (a.low < 0 || b.low <= 0) return std::nullopt;
      if (a.high < b.low) return a;
      return IndexRange{0, std::min(a.high, b.high - 1)};
    case clang::BO_And:
      if (a.low < 0 || b.low < 0) return std::nullopt;
      return IndexRange{0, std::min(a.high, b.high)};
    case clang::BO_Shl:
      if (a.low < 0 || b.low < 0 || b.high > 62) return std::nullopt;
      return IndexRange{a.low << b.low, a.high << b.high};
    case clang::BO_Shr:
      if (a.low < 0 || b.low < 0 || b.high > 63) return std::nullopt;
      return IndexRange{a.low >> b.high, a.high >> b.low};
    default: return std::nullopt;
  }
}

// Every use of `var` in a function body, other than inside `except`.
class UseFinder : public clang::RecursiveASTVisitor<UseFinder> {
 public:
  UseFinder(const clang::VarDecl* var, const clang::Stmt* except) : var_(var), except_(except) {}
  bool TraverseStmt(clang::Stmt* statement) {
    if (statement == nullptr || statement == except_) return true;
    return RecursiveASTVisitor::TraverseStmt(statement);
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    if (ref->getDecl() == var_) uses.push_back(ref);
    return true;
  }
  std::vector<const clang::DeclRefExpr*> uses;

 private:
  const clang::VarDecl* var_;
  const clang::Stmt* except_;
};

// `piece.rows()`, `piece.cols()` of a tile_mut<T, R, C> and `piece.size()` of a chunk_mut<T, K>:
// at most the piece's compile-time extent.
std::optional<IndexRange> piece_extent(const clang::Expr* expr) {
  const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr);
  const clang::CXXMethodDecl* method = call ? call->getMethodDecl() : nullptr;
  if (method == nullptr || !method->getIdentifier()) return std::nullopt;
  const auto* piece = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(method->getParent());
  const auto argument = model::vocabulary::piece_extent_argument(method);
  if (piece == nullptr || !argument) return std::nullopt;
  const clang::TemplateArgument& extent = piece->getTemplateArgs()[*argument];
  if (extent.getKind() != clang::TemplateArgument::Integral) return std::nullopt;
  return IndexRange{0, extent.getAsIntegral().getExtValue()};
}

// `x & m` with m ≥ 0 lies in [0, m] whatever x is (m's sign bit clears the result's), and an
// unsigned `x % m` in [0, m − 1]: a mask or a modulus bounds a value nothing else bounds.
std::optional<IndexRange> bounded_by_one_side(const clang::BinaryOperator* op,
                                              std::optional<IndexRange> left,
                                              std::optional<IndexRange> right) {
  if (op->getOpcode() == clang::BO_And) {
    for (const auto& side : {left, right})
      if (side && side->low >= 0) return IndexRange{0, side->high};
  }
  if (op->getOpcode() == clang::BO_Rem && right && right->low > 0 &&
      op->getType()->isUnsignedIntegerType())
    return IndexRange{0, right->high - 1};
  return std::nullopt;
}

// std::min of a bounded value and anything non-negative is bounded by the first.
std::optional<IndexRange> extremum_range(const clang::CallExpr* call, Extremum which,
                                         std::optional<IndexRange> a, std::optional<IndexRange> b) {
  const bool min = which == Extremum::Min;
  if (a && b)
    return min ? IndexRange{std::min(a->low, b->low), std::min(a->high, b->high)}
               : IndexRange{std::max(a->low, b->low), std::max(a->high, b->high)};
  if (min && call->getType()->isUnsignedIntegerType())
    for (const auto& side : {a, b})
      if (side) return IndexRange{0, side->high};
  return std::nullopt;
}

}  // namespace

IndexBounds::IndexBounds(const ThreadValues& values) : values_(values) {}

// A variable keeps its range when every use only reads it: then nothing but its declaration
// (or a loop's increment, passed as `except`) gives it a value.
bool IndexBounds::only_read(const clang::VarDecl* var, const clang::Stmt* except) const {
  UseFinder finder(var, except);
  finder.TraverseStmt(const_cast<clang::Stmt*>(values_.function()->getBody()));
  for (const clang::DeclRefExpr* use : finder.uses) {
    const auto* cast = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(
        values_.parents().getParentIgnoreParens(const_cast<clang::DeclRefExpr*>(use)));
    if (cast == nullptr || cast->getCastKind() != clang::CK_LValueToRValue) return false;
  }
  return true;
}

std::optional<IndexRange> IndexBounds::vocabulary_value(const clang::Expr* expr) const {
  const BlockShape& shape = values_.shape();
  if (!shape.known()) return std::nullopt;
  if (auto extent = piece_extent(expr)) return extent;
  using model::vocabulary::Witness;
  if (model::vocabulary::is_witness_read(expr, Witness::Local))
    return IndexRange{0, __int128(*shape.threads()) - 1};
  if (model::vocabulary::is_witness_read(expr, Witness::Lane)) return IndexRange{0, 31};
  const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr);
  if (member == nullptr || !member->getMemberDecl()->getIdentifier()) return std::nullopt;
  const llvm::StringRef field = member->getMemberDecl()->getName();
  const int axis = field == "x" ? 0 : field == "y" ? 1 : field == "z" ? 2 : -1;
  if (axis < 0) return std::nullopt;
  const auto source = model::vocabulary::dim3_source(member->getBase());
  const __int128 extent = shape.extent[axis];
  if (source == model::vocabulary::Dim3::ThreadIdx) return IndexRange{0, extent - 1};
  if (source == model::vocabulary::Dim3::BlockDim) return IndexRange{extent, extent};
  return std::nullopt;
}

namespace {

// How a for loop's increment moves its counter: up by a positive constant, or doubled or halved
// by a constant power of two (`<<= c`, `*= 2^c`, `>>= c`, `/= 2^c`), `amount` bits at a time.
struct Step {
  enum Kind { Add, Double, Halve } kind;
  __int128 amount;
};

std::optional<Step> counter_step(const clang::Expr* increment, const ThreadValues& values) {
  increment = increment ? increment->IgnoreImplicit()->IgnoreParenImpCasts() : nullptr;
  if (const auto* unary = llvm::dyn_cast_or_null<clang::UnaryOperator>(increment))
    return unary->isIncrementOp() ? std::optional<Step>(Step{Step::Add, 1}) : std::nullopt;
  const auto* compound = llvm::dyn_cast_or_null<clang::CompoundAssignOperator>(increment);
  const auto amount = compound ? values.constant(compound->getRHS()) : std::nullopt;
  if (!amount || *amount <= 0) return std::nullopt;
  const bool power_of_two = (*amount & (*amount - 1)) == 0;
  const __int128 log2 = power_of_two ? __int128(llvm::Log2_64(std::uint64_t(*amount))) : 0;
  switch (compound->getOpcode()) {
    case clang::BO_AddAssign: return Step{Step::Add, *amount};
    case clang::BO_ShlAssign: return *amount < 63 ? std::optional<Step>(Step{Step::Double, *amount}) : std::nullopt;
    case clang::BO_ShrAssign: return Step{Step::Halve, *amount};
    case clang::BO_MulAssign: return power_of_two && log2 > 0 ? std::optional<Step>(Step{Step::Double, log2}) : std::nullopt;
    case clang::BO_DivAssign: return power_of_two && log2 > 0 ? std::optional<Step>(Step{Step::Halve, log2}) : std::nullopt;
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<IndexRange> IndexBounds::loop_counter_range(const clang::ForStmt& loop,
                                                          const clang::VarDecl* counter,
                                                          int depth) const {
  const auto* condition = llvm::dyn_cast_or_null<clang::BinaryOperator>(
      loop.getCond() ? loop.getCond()->IgnoreParenImpCasts() : nullptr);
  if (condition == nullptr || !counter->getInit()) return std::nullopt;
  const auto* left = llvm::dyn_cast<clang::DeclRefExpr>(condition->getLHS()->IgnoreParenImpCasts());
  if (left == nullptr || left->getDecl() != counter) return std::nullopt;
  if (!only_read(counter, loop.getInc())) return std::nullopt;
  const auto step = counter_step(loop.getInc(), values_);
  if (!step) return std::nullopt;
  const auto start = range(counter->getInit(), {}, depth + 1);
  const auto bound = range(condition->getRHS(), {}, depth + 1);
  if (!start || !bound) return std::nullopt;
  const clang::BinaryOperatorKind test = condition->getOpcode();
  if (step->kind == Step::Halve) {
    // Halving a non-negative counter while it stays above the bound: it never wraps.
    if (start->low < 0) return std::nullopt;
    if (test == clang::BO_GT) return IndexRange{std::min(start->high, bound->low + 1), start->high};
    if (test == clang::BO_GE) return IndexRange{std::min(start->high, std::max<__int128>(bound->low, 0)), start->high};
    return std::nullopt;
  }
  __int128 last;
  switch (test) {
    case clang::BO_LT: last = bound->high - 1; break;
    case clang::BO_LE: last = bound->high; break;
    default: return std::nullopt;
  }
  // The step past the last value must not wrap around below the bound.
  const __int128 past = step->kind == Step::Add ? last + step->amount : last << step->amount;
  if ((step->kind == Step::Double && start->low <= 0) ||
      !fitted(IndexRange{start->low, past}, counter->getType(), values_.context()))
    return std::nullopt;
  // One start value and a constant step: the counter takes only start + k·step, the last of
  // them the largest at or below `last` (`for (i = 0; i < 32; i += 16)` is 0 or 16, not up to 31).
  if (step->kind == Step::Add && step->amount > 0 && start->low == start->high && last >= start->low)
    return IndexRange{start->low, start->low + (last - start->low) / step->amount * step->amount};
  return IndexRange{start->low, std::max(start->low, last)};
}

std::optional<IndexRange> IndexBounds::range_at(const clang::Expr* expr,
                                                const clang::Stmt* site) const {
  Facts facts;
  for (const ControlCondition& condition : values_.control().conditions_for(site))
    if (condition.holds) add_facts(condition.expr, *condition.holds, facts);
  return range(expr, facts, 0);
}

std::optional<IndexRange> IndexBounds::subscript_range(const clang::Expr* index,
                                                       const clang::Stmt* site) const {
  if (is_local_witness(index)) {
    if (auto threads = values_.shape().threads()) return IndexRange{0, __int128(*threads) - 1};
    return std::nullopt;
  }
  return range_at(index, site);
}

void IndexBounds::add_facts(const clang::Expr* condition, bool holds, Facts& facts) const {
  condition = condition->IgnoreParenImpCasts();
  if (const auto* negation = llvm::dyn_cast<clang::UnaryOperator>(condition);
      negation && negation->getOpcode() == clang::UO_LNot)
    return add_facts(negation->getSubExpr(), !holds, facts);
  const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(condition);
  if (binary == nullptr) return;
  if ((binary->getOpcode() == clang::BO_LAnd && holds) ||
      (binary->getOpcode() == clang::BO_LOr && !holds)) {
    add_facts(binary->getLHS(), holds, facts);
    add_facts(binary->getRHS(), holds, facts);
    return;
  }
  if (!binary->isRelationalOp()) return;
  clang::BinaryOperatorKind op = binary->getOpcode();
  if (!holds) op = clang::BinaryOperator::negateComparisonOp(op);
  add_comparison_fact(binary->getLHS(), op, binary->getRHS(), facts);
  add_comparison_fact(binary->getRHS(), clang::BinaryOperator::reverseComparisonOp(op),
                      binary->getLHS(), facts);
}

// `subject op other`. Only a subject whose own range survives the comparison's conversions
// unchanged learns anything: `int x; x < 8u` failing does not mean x >= 8.
void IndexBounds::add_comparison_fact(const clang::Expr* subject, clang::BinaryOperatorKind op,
                                      const clang::Expr* other, Facts& facts) const {
  const clang::QualType compared = subject->getType();
  const clang::Expr* bare = subject->IgnoreParenImpCasts();
  if (!same_at_test_and_site(bare) || !fitted(range(bare, {}, 0), compared, values_.context())) return;
  const auto limit = range(other, {}, 0);
  if (!limit) return;
  const __int128 lowest = std::numeric_limits<std::int64_t>::min();
  const __int128 highest = std::numeric_limits<std::uint64_t>::max();
  Fact fact{{}, {lowest, highest}};
  switch (op) {
    case clang::BO_LT: fact.range.high = limit->high - 1; break;
    case clang::BO_LE: fact.range.high = limit->high; break;
    case clang::BO_GT: fact.range.low = limit->low + 1; break;
    case clang::BO_GE: fact.range.low = limit->low; break;
    default: return;
  }
  bare->Profile(fact.subject, values_.context(), /*Canonical=*/true);
  facts.push_back(std::move(fact));
}

// A fact is matched to the site by the subject's shape, so it holds there only if the subject
// has the value it had at the test: built of constants, thread coordinates, witnesses and
// variables that nothing assigns after their declaration (a counter but by its loop's
// increment, which runs after the body). A read of memory or any other call may change.
bool IndexBounds::same_at_test_and_site(const clang::Expr* subject) const {
  subject = subject->IgnoreParenImpCasts();
  if (values_.constant(subject) || vocabulary_value(subject)) return true;
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(subject)) {
    if (llvm::isa<clang::EnumConstantDecl>(ref->getDecl())) return true;
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var == nullptr) return false;
    const clang::ForStmt* loop = values_.counted_loop(var);
    return only_read(var, loop ? loop->getInc() : nullptr);
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(subject))
    return min_or_max(call) && same_at_test_and_site(call->getArg(0)) && same_at_test_and_site(call->getArg(1));
  if (llvm::isa<clang::BinaryOperator, clang::UnaryOperator, clang::ConditionalOperator, clang::CastExpr,
                clang::MaterializeTemporaryExpr, clang::FullExpr>(subject)) {
    if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(subject);
        op && (op->isIncrementDecrementOp() || op->getOpcode() == clang::UO_Deref))
      return false;
    if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(subject); op && op->isAssignmentOp()) return false;
    return llvm::all_of(subject->children(), [&](const clang::Stmt* child) {
      const auto* operand = llvm::dyn_cast_or_null<clang::Expr>(child);
      return operand != nullptr && same_at_test_and_site(operand);
    });
  }
  return false;
}

std::optional<IndexRange> IndexBounds::variable_range(const clang::VarDecl* var, int depth) const {
  if (!var->isLocalVarDecl()) return std::nullopt;
  if (const clang::ForStmt* loop = values_.counted_loop(var))
    return loop_counter_range(*loop, var, depth);
  if (var->getInit() && only_read(var, nullptr)) return range(var->getInit(), {}, depth + 1);
  return std::nullopt;
}

std::optional<IndexRange> IndexBounds::range(const clang::Expr* expr, const Facts& facts,
                                             int depth) const {
  auto result = unnarrowed(expr, facts, depth);
  if (!result || facts.empty()) return result;
  llvm::FoldingSetNodeID id;
  expr->IgnoreParenImpCasts()->Profile(id, values_.context(), /*Canonical=*/true);
  for (const Fact& fact : facts)
    if (fact.subject == id) {
      result->low = std::max(result->low, fact.range.low);
      result->high = std::min(result->high, fact.range.high);
    }
  return result;
}

std::optional<IndexRange> IndexBounds::unnarrowed(const clang::Expr* expr, const Facts& facts,
                                                  int depth) const {
  if (depth > kMaxDepth || expr == nullptr) return std::nullopt;
  clang::ASTContext& context = values_.context();
  if (auto value = values_.constant(expr)) return IndexRange{*value, *value};
  const clang::Expr* bare = expr->IgnoreParens();
  if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(bare)) {
    if (cast->getCastKind() == clang::CK_IntegralCast || cast->getCastKind() == clang::CK_NoOp ||
        cast->getCastKind() == clang::CK_LValueToRValue)
      return fitted(range(cast->getSubExpr(), facts, depth + 1), expr->getType(), context);
    return std::nullopt;
  }
  if (const auto* temporary = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(bare))
    return range(temporary->getSubExpr(), facts, depth + 1);
  if (const auto* full = llvm::dyn_cast<clang::FullExpr>(bare)) return range(full->getSubExpr(), facts, depth + 1);
  if (const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(bare)) {
    const auto left = range(binary->getLHS(), facts, depth + 1);
    const auto right = range(binary->getRHS(), facts, depth + 1);
    if (!left || !right)
      return fitted(bounded_by_one_side(binary, left, right), expr->getType(), context);
    return fitted(combine(binary->getOpcode(), *left, *right), expr->getType(), context);
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(bare))
    if (const auto which = min_or_max(call)) {
      const auto left = range(call->getArg(0), facts, depth + 1);
      const auto right = range(call->getArg(1), facts, depth + 1);
      return fitted(extremum_range(call, *which, left, right), expr->getType(), context);
    }
  if (const auto* choice = llvm::dyn_cast<clang::ConditionalOperator>(bare)) {
    const auto yes = range(choice->getTrueExpr(), facts, depth + 1);
    const auto no = range(choice->getFalseExpr(), facts, depth + 1);
    if (!yes || !no) return std::nullopt;
    return IndexRange{std::min(yes->low, no->low), std::max(yes->high, no->high)};
  }
  if (auto value = vocabulary_value(bare)) return fitted(value, expr->getType(), context);
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(bare))
    if (const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl()))
      return fitted(variable_range(var, depth), expr->getType(), context);
  return std::nullopt;
}

}  // namespace carbide::analysis
