#include "analysis/slot_solver.hpp"

#include "analysis/value_sets.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/ExprCXX.h>
#include <llvm/ADT/APSInt.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/Support/SMTAPI.h>

#include <map>
#include <optional>

namespace carbide::analysis {
namespace {

namespace vocabulary = model::vocabulary;
using Term = llvm::SMTExprRef;

constexpr int kMaxDepth = 48;
constexpr int kShared = 2;  // the "side" of a value both threads see the same

// Encodes the integer expressions of one function for two threads, side 0 and side 1, of one
// block. Every value is a bit-vector exactly as wide as its C++ type, so wrapping arithmetic and
// conversions mean what they mean on the device.
class Encoder {
 public:
  Encoder(const ThreadValues& values, llvm::SMTSolver& solver, const std::set<std::string>& variant)
      : values_(values), solver_(solver), variant_(variant) {
    for (int side = 0; side < 2; ++side)
      for (int axis = 0; axis < 3; ++axis)
        coordinate_[side][axis] = symbol("t" + std::to_string(axis) + "." + std::to_string(side), 32);
  }

  // Each thread lies in the contract's block, and the two are different threads.
  void constrain_threads() {
    const BlockShape& shape = values_.shape();
    Term same = solver_.mkBoolean(true);
    for (int axis = 0; axis < 3; ++axis) {
      for (int side = 0; side < 2; ++side)
        solver_.addConstraint(solver_.mkBVUlt(coordinate_[side][axis], constant(shape.extent[axis], 32)));
      same = solver_.mkAnd(same, solver_.mkEqual(coordinate_[0][axis], coordinate_[1][axis]));
    }
    solver_.addConstraint(solver_.mkNot(same));
  }

  // The slot an access reaches, as a 64-bit index.
  std::optional<Term> slot(const SharedAccess& access, int side) {
    if (is_local_witness(access.index)) return resized(local(side), 32, 64, false);
    auto index = value(access.index, side, 0);
    if (!index) return std::nullopt;
    return resized(*index, width(access.index->getType()), 64,
                   access.index->getType()->isSignedIntegerOrEnumerationType());
  }

  // What holds on the way to the access, as far as it can be said.
  void constrain_path(const SharedAccess& access, int side) {
    for (const ControlCondition& condition : values_.control().conditions_for(access.expr)) {
      if (!condition.holds) continue;
      if (auto test = truth(condition.expr, side, 0))
        solver_.addConstraint(*condition.holds ? *test : solver_.mkNot(*test));
    }
  }

 private:
  unsigned width(clang::QualType type) const {
    return unsigned(values_.context().getIntWidth(type.getCanonicalType()));
  }
  static bool is_signed(const clang::Expr* expr) {
    return expr->getType()->isSignedIntegerOrEnumerationType();
  }
  bool is_integer(const clang::Expr* expr) const {
    return expr->getType()->isIntegralOrEnumerationType() && !expr->getType()->isBooleanType() &&
           width(expr->getType()) <= 64;
  }

  Term symbol(const std::string& name, unsigned bits) {
    return solver_.mkSymbol(name.c_str(), solver_.getBitvectorSort(bits));
  }
  Term constant(std::uint64_t value, unsigned bits) {
    return solver_.mkBitvector(llvm::APSInt(llvm::APInt(bits, value), true), bits);
  }
  Term resized(Term term, unsigned from, unsigned to, bool sign_extend) {
    if (to > from) return sign_extend ? solver_.mkBVSignExt(to - from, term) : solver_.mkBVZeroExt(to - from, term);
    if (to < from) return solver_.mkBVExtract(to - 1, 0, term);
    return term;
  }
  // `expr`'s value, converted to `type`'s width the way C++ converts it.
  std::optional<Term> value_as(const clang::Expr* expr, clang::QualType type, int side, int depth) {
    auto term = value(expr, side, depth);
    if (!term) return std::nullopt;
    return resized(*term, width(expr->getType()), width(type), is_signed(expr));
  }

  Term local(int side) {
    const BlockShape& shape = values_.shape();
    const Term& x = coordinate_[side][0];
    const Term& y = coordinate_[side][1];
    const Term& z = coordinate_[side][2];
    return solver_.mkBVAdd(x, solver_.mkBVMul(constant(shape.extent[0], 32),
                                              solver_.mkBVAdd(y, solver_.mkBVMul(constant(shape.extent[1], 32), z))));
  }
  Term block_value(const std::string& name, unsigned bits) {
    auto [found, added] = block_values_.try_emplace(name, nullptr);
    if (added) found->second = symbol("block." + name, bits);
    return found->second;
  }

  std::optional<Term> value(const clang::Expr* expr, int side, int depth) {
    if (depth > kMaxDepth || expr == nullptr || !is_integer(expr)) return std::nullopt;
    const auto key = std::make_pair(expr, side);
    if (auto found = values_memo_.find(key); found != values_memo_.end()) return found->second;
    auto term = encode(expr, side, depth);
    values_memo_[key] = term;
    return term;
  }

  std::optional<Term> encode(const clang::Expr* expr, int side, int depth) {
    const unsigned bits = width(expr->getType());
    if (auto known = values_.constant(expr)) return constant(std::uint64_t(*known), bits);
    const clang::Expr* bare = expr->IgnoreParens();
    if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(bare)) return cast_value(cast, side, depth);
    if (const auto* temporary = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(bare))
      return value(temporary->getSubExpr(), side, depth + 1);
    if (const auto* full = llvm::dyn_cast<clang::FullExpr>(bare)) return value(full->getSubExpr(), side, depth + 1);
    if (auto coordinate = vocabulary_value(bare, side)) return coordinate;
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(bare)) return variable(ref, side, depth);
    if (const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(bare)) return arithmetic(binary, side, depth);
    if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(bare)) {
      auto operand = value(unary->getSubExpr(), side, depth + 1);
      if (!operand) return std::nullopt;
      switch (unary->getOpcode()) {
        case clang::UO_Plus: return operand;
        case clang::UO_Minus: return solver_.mkBVNeg(*operand);
        case clang::UO_Not: return solver_.mkBVNot(*operand);
        default: return std::nullopt;
      }
    }
    if (const auto* choice = llvm::dyn_cast<clang::ConditionalOperator>(bare)) {
      auto test = truth(choice->getCond(), side, depth + 1);
      auto yes = value_as(choice->getTrueExpr(), expr->getType(), side, depth + 1);
      auto no = value_as(choice->getFalseExpr(), expr->getType(), side, depth + 1);
      if (!test || !yes || !no) return std::nullopt;
      return solver_.mkIte(*test, *yes, *no);
    }
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(bare)) return call_value(call, side, depth);
    return std::nullopt;
  }

  // `view.get_mut_block(lid)`, or a pointer given its value once from it: non-null for the
  // block's local thread 0 alone.
  bool is_leader_claim(const clang::Expr* pointer) const {
    pointer = pointer->IgnoreParenImpCasts();
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(pointer)) {
      const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
      const clang::Expr* init = var ? values_.sole_initializer(var) : nullptr;
      if (init == nullptr) return false;
      pointer = init->IgnoreParenImpCasts();
    }
    const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(pointer);
    return call != nullptr && vocabulary::is_leader_claim(call->getMethodDecl());
  }

  std::optional<Term> cast_value(const clang::CastExpr* cast, int side, int depth) {
    const clang::Expr* from = cast->getSubExpr();
    switch (cast->getCastKind()) {
      case clang::CK_LValueToRValue:
      case clang::CK_NoOp:
        return value(from, side, depth + 1);
      case clang::CK_IntegralCast:
        return value_as(from, cast->getType(), side, depth + 1);
      default:
        return std::nullopt;
    }
  }

  // Thread coordinates, witnesses and block extents.
  std::optional<Term> vocabulary_value(const clang::Expr* expr, int side) {
    const unsigned bits = width(expr->getType());
    using vocabulary::Witness;
    if (vocabulary::is_witness_read(expr, Witness::Local)) return resized(local(side), 32, bits, false);
    if (vocabulary::is_witness_read(expr, Witness::Lane))
      return resized(solver_.mkBVAnd(local(side), constant(31, 32)), 32, bits, false);
    const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr);
    if (member == nullptr || !member->getMemberDecl()->getIdentifier()) return std::nullopt;
    const llvm::StringRef field = member->getMemberDecl()->getName();
    const int axis = field == "x" ? 0 : field == "y" ? 1 : field == "z" ? 2 : -1;
    const auto source = vocabulary::dim3_source(member->getBase());
    if (axis < 0 || !source) return std::nullopt;
    switch (*source) {
      case vocabulary::Dim3::ThreadIdx: return resized(coordinate_[side][axis], 32, bits, false);
      case vocabulary::Dim3::BlockDim: return constant(values_.shape().extent[axis], bits);
      case vocabulary::Dim3::BlockIdx: return resized(block_value("block_idx." + field.str(), 32), 32, bits, false);
      case vocabulary::Dim3::GridDim: return resized(block_value("grid_dim." + field.str(), 32), 32, bits, false);
    }
    return std::nullopt;
  }

  std::optional<Term> variable(const clang::DeclRefExpr* ref, int side, int depth) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var == nullptr) return std::nullopt;
    const unsigned bits = width(var->getType());
    const bool uniform = values_.uniformity(ref) == Uniformity::Uniform;
    const bool changes = variant_.count(symbol_key(var)) != 0;
    // Kernel arguments and other values the whole block shares, in every iteration alike.
    if (llvm::isa<clang::ParmVarDecl>(var) || var->hasGlobalStorage()) {
      if (!uniform) return std::nullopt;
      return block_value(symbol_key(var), bits);
    }
    const int owner = uniform && !changes ? kShared : side;
    if (const clang::ForStmt* loop = values_.counted_loop(var))
      return loop_counter(var, *loop, owner, depth);
    // A variable given its value once stands for its initializer.
    if (const clang::Expr* init = values_.sole_initializer(var))
      return value_as(init, var->getType(), side, depth + 1);
    // Where one definition reaches the use, the variable is what that definition assigned
    // (`pin = 1 - pout` just above the read)...
    if (auto reaching = values_.reaching_definitions(ref); reaching && reaching->size() == 1) {
      const clang::Stmt* site = reaching->front();
      if (site == var->getInit()) return value_as(var->getInit(), var->getType(), side, depth + 1);
      if (const auto* assign = llvm::dyn_cast<clang::BinaryOperator>(site);
          assign && assign->getOpcode() == clang::BO_Assign)
        return value_as(assign->getRHS(), var->getType(), side, depth + 1);
    }
    // ...and elsewhere one of the few values its definitions can produce (0 or 1 for a
    // double buffer's `pout = 1 - pout`), the same for both threads where it is uniform.
    if (auto possible = value_sets_.of(var)) return one_of(*possible, ref, owner, bits);
    if (uniform) return variable_symbol(var, owner);
    return std::nullopt;
  }

  Term one_of(const std::set<std::int64_t>& possible, const clang::DeclRefExpr* use, int owner, unsigned bits) {
    auto [found, added] = use_symbols_.try_emplace({use, owner}, nullptr);
    if (!added) return found->second;
    found->second = symbol("use" + std::to_string(use_symbols_.size()) + "." + std::to_string(owner), bits);
    Term any = solver_.mkBoolean(false);
    for (std::int64_t value : possible)
      any = solver_.mkOr(any, solver_.mkEqual(found->second, constant(std::uint64_t(value), bits)));
    solver_.addConstraint(any);
    return found->second;
  }

  Term variable_symbol(const clang::VarDecl* var, int owner) {
    auto [found, added] = variables_.try_emplace({var, owner}, nullptr);
    if (added) found->second = symbol(symbol_key(var) + "." + std::to_string(owner), width(var->getType()));
    return found->second;
  }

  // The part of a loop's increment that is `site`: the whole increment, or one operand of a
  // comma list (`pos += blockDim.x, ++k` steps two counters).
  static const clang::Expr* step_in(const clang::Expr* increment, const clang::Stmt* site) {
    if (increment == nullptr) return nullptr;
    increment = increment->IgnoreImplicit()->IgnoreParens();
    if (increment == site) return increment;
    if (const auto* comma = llvm::dyn_cast<clang::BinaryOperator>(increment); comma && comma->isCommaOp()) {
      if (const clang::Expr* left = step_in(comma->getLHS(), site)) return left;
      return step_in(comma->getRHS(), site);
    }
    return nullptr;
  }

  // A counter declared in a for loop's head: a fresh value that starts at the initializer and
  // moves by the loop's step (a constant stride, or doubling and halving). The loop's condition
  // reaches the access as a path condition.
  std::optional<Term> loop_counter(const clang::VarDecl* var, const clang::ForStmt& loop, int owner, int depth) {
    if (auto found = variables_.find({var, owner}); found != variables_.end()) return found->second;
    const Term counter = variable_symbol(var, owner);
    const llvm::ArrayRef<const clang::Stmt*> sites = values_.definition_sites(var);
    const clang::Expr* step = sites.size() == 2 ? step_in(loop.getInc(), sites[1]) : nullptr;
    if (!var->getInit() || step == nullptr) return counter;  // assigned elsewhere too: any value
    auto start = value_as(var->getInit(), var->getType(), owner == kShared ? 0 : owner, depth + 1);
    if (!start) return counter;
    const unsigned bits = width(var->getType());
    const bool signed_counter = var->getType()->isSignedIntegerOrEnumerationType();
    std::int64_t amount = 0;
    clang::BinaryOperatorKind kind = clang::BO_Add;
    // For `++`, `--`, `+=` and `-=`: how far one step moves, and whether down.
    std::optional<Term> magnitude;
    bool down = false, direction_known = false;
    if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(step)) {
      down = unary->isDecrementOp();
      magnitude = constant(1, bits);
      direction_known = true;
    } else if (const auto* compound = llvm::dyn_cast<clang::CompoundAssignOperator>(step)) {
      kind = compound->getOpcode();
      const auto by = values_.constant(compound->getRHS());
      if (by) amount = *by;
      if (kind == clang::BO_AddAssign || kind == clang::BO_SubAssign) {
        down = (kind == clang::BO_SubAssign) != (by && *by < 0);
        if (by) {
          magnitude = constant(std::uint64_t(*by < 0 ? -*by : *by), bits);
          direction_known = true;
        } else if (values_.uniformity(compound->getRHS()) == Uniformity::Uniform) {
          // A block-uniform step such as blockDim.x; its sign is known when its type is unsigned.
          magnitude = value_as(compound->getRHS(), var->getType(), owner == kShared ? 0 : owner, depth + 1);
          direction_known = compound->getRHS()->getType()->isUnsignedIntegerType();
        }
        kind = clang::BO_Add;
      }
    } else {
      return counter;
    }
    if (kind == clang::BO_Add) {
      // counter = start ± k·magnitude for some k, on the side the loop moves; with a step whose
      // sign is unknown, any value (the remainder would not hold for a negative step).
      if (!magnitude || !direction_known) return counter;
      const Term distance = down ? solver_.mkBVSub(*start, counter) : solver_.mkBVSub(counter, *start);
      solver_.addConstraint(solver_.mkEqual(solver_.mkBVURem(distance, *magnitude), constant(0, bits)));
      solver_.addConstraint(down ? (signed_counter ? solver_.mkBVSle(counter, *start) : solver_.mkBVUle(counter, *start))
                                 : (signed_counter ? solver_.mkBVSge(counter, *start) : solver_.mkBVUge(counter, *start)));
      return counter;
    }
    // Scaling by a power of two each step: `<<= c`, `*= 2^c`, and `>>= c`, `/= 2^c` of a
    // non-negative start. The counter is then start shifted by c·k bits for some k.
    const bool power_of_two = amount > 0 && (amount & (amount - 1)) == 0;
    const std::int64_t log2 = power_of_two ? std::int64_t(llvm::Log2_64(std::uint64_t(amount))) : 0;
    std::int64_t bits_per_step = 0;
    if (kind == clang::BO_ShlAssign || kind == clang::BO_ShrAssign) bits_per_step = amount;
    if (kind == clang::BO_MulAssign || kind == clang::BO_DivAssign) bits_per_step = log2;
    const bool doubles = kind == clang::BO_ShlAssign || kind == clang::BO_MulAssign;
    if (bits_per_step <= 0 || bits_per_step >= std::int64_t(bits) ||
        (!power_of_two && (kind == clang::BO_MulAssign || kind == clang::BO_DivAssign)))
      return counter;
    const Term steps = symbol(symbol_key(var) + ".steps." + std::to_string(owner), bits);
    solver_.addConstraint(solver_.mkBVUlt(steps, constant(bits, bits)));
    if (!doubles && signed_counter) solver_.addConstraint(solver_.mkBVSge(*start, constant(0, bits)));
    const Term shift = solver_.mkBVMul(steps, constant(std::uint64_t(bits_per_step), bits));
    solver_.addConstraint(solver_.mkEqual(
        counter, doubles ? solver_.mkBVShl(*start, shift) : solver_.mkBVLshr(*start, shift)));
    return counter;
  }

  std::optional<Term> arithmetic(const clang::BinaryOperator* op, int side, int depth) {
    if (op->isComparisonOp() || op->isLogicalOp() || op->isAssignmentOp() || op->getOpcode() == clang::BO_Comma)
      return std::nullopt;
    const clang::QualType type = op->getType();
    auto left = value_as(op->getLHS(), type, side, depth + 1);
    auto right = value_as(op->getRHS(), type, side, depth + 1);
    if (!left || !right) return std::nullopt;
    const bool sign = type->isSignedIntegerOrEnumerationType();
    switch (op->getOpcode()) {
      case clang::BO_Add: return solver_.mkBVAdd(*left, *right);
      case clang::BO_Sub: return solver_.mkBVSub(*left, *right);
      case clang::BO_Mul: return solver_.mkBVMul(*left, *right);
      case clang::BO_Div: return sign ? solver_.mkBVSDiv(*left, *right) : solver_.mkBVUDiv(*left, *right);
      case clang::BO_Rem: return sign ? solver_.mkBVSRem(*left, *right) : solver_.mkBVURem(*left, *right);
      case clang::BO_And: return solver_.mkBVAnd(*left, *right);
      case clang::BO_Or: return solver_.mkBVOr(*left, *right);
      case clang::BO_Xor: return solver_.mkBVXor(*left, *right);
      case clang::BO_Shl: return solver_.mkBVShl(*left, *right);
      case clang::BO_Shr: return sign ? solver_.mkBVAshr(*left, *right) : solver_.mkBVLshr(*left, *right);
      default: return std::nullopt;
    }
  }

  // std::min and std::max, and the extents of Carbide's views, which the whole block shares.
  std::optional<Term> call_value(const clang::CallExpr* call, int side, int depth) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr) return std::nullopt;
    if (const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(call)) {
      if (!vocabulary::is_extent_query(member->getMethodDecl()) ||
          values_.uniformity(member) != Uniformity::Uniform)
        return std::nullopt;
      llvm::FoldingSetNodeID id;
      member->Profile(id, values_.context(), /*Canonical=*/true);
      return block_value("extent." + std::to_string(id.ComputeHash()), width(call->getType()));
    }
    const auto which = min_or_max(call);
    if (!which) return std::nullopt;
    const bool min = which == Extremum::Min;
    const clang::QualType type = call->getType().getNonReferenceType();
    auto a = value_as(call->getArg(0), type, side, depth + 1);
    auto b = value_as(call->getArg(1), type, side, depth + 1);
    if (!a || !b) return std::nullopt;
    const bool sign = type->isSignedIntegerOrEnumerationType();
    const Term a_less = sign ? solver_.mkBVSlt(*a, *b) : solver_.mkBVUlt(*a, *b);
    return min ? solver_.mkIte(a_less, *a, *b) : solver_.mkIte(a_less, *b, *a);
  }

  std::optional<Term> truth(const clang::Expr* expr, int side, int depth) {
    if (depth > kMaxDepth) return std::nullopt;
    expr = expr->IgnoreParens();
    if (const auto* full = llvm::dyn_cast<clang::FullExpr>(expr))  // a condition with temporaries
      return truth(full->getSubExpr(), side, depth + 1);
    if (const auto* literal = llvm::dyn_cast<clang::CXXBoolLiteralExpr>(expr))
      return solver_.mkBoolean(literal->getValue());
    if (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(expr)) {
      if (cast->getCastKind() == clang::CK_IntegralToBoolean) {
        auto operand = value(cast->getSubExpr(), side, depth + 1);
        if (!operand) return std::nullopt;
        return solver_.mkNot(solver_.mkEqual(*operand, constant(0, width(cast->getSubExpr()->getType()))));
      }
      if (cast->getCastKind() == clang::CK_LValueToRValue || cast->getCastKind() == clang::CK_NoOp)
        return truth(cast->getSubExpr(), side, depth + 1);
      if (cast->getCastKind() == clang::CK_PointerToBoolean && is_leader_claim(cast->getSubExpr()))
        return solver_.mkEqual(local(side), constant(0, 32));
      return std::nullopt;
    }
    if (const auto* negation = llvm::dyn_cast<clang::UnaryOperator>(expr);
        negation && negation->getOpcode() == clang::UO_LNot) {
      auto operand = truth(negation->getSubExpr(), side, depth + 1);
      if (!operand) return std::nullopt;
      return solver_.mkNot(*operand);
    }
    const auto* op = llvm::dyn_cast<clang::BinaryOperator>(expr);
    if (op == nullptr) return std::nullopt;
    if (op->isLogicalOp()) {
      auto left = truth(op->getLHS(), side, depth + 1);
      auto right = truth(op->getRHS(), side, depth + 1);
      if (!left || !right) return std::nullopt;
      return op->getOpcode() == clang::BO_LAnd ? solver_.mkAnd(*left, *right) : solver_.mkOr(*left, *right);
    }
    if (!op->isComparisonOp()) return std::nullopt;
    // Both sides already have the comparison's common type, by the usual arithmetic conversions.
    const clang::QualType type = op->getLHS()->getType();
    if (!op->getLHS()->getType()->isIntegralOrEnumerationType() ||
        width(op->getLHS()->getType()) != width(op->getRHS()->getType()))
      return std::nullopt;
    auto left = value(op->getLHS(), side, depth + 1);
    auto right = value(op->getRHS(), side, depth + 1);
    if (!left || !right) return std::nullopt;
    const bool sign = type->isSignedIntegerOrEnumerationType();
    switch (op->getOpcode()) {
      case clang::BO_LT: return sign ? solver_.mkBVSlt(*left, *right) : solver_.mkBVUlt(*left, *right);
      case clang::BO_LE: return sign ? solver_.mkBVSle(*left, *right) : solver_.mkBVUle(*left, *right);
      case clang::BO_GT: return sign ? solver_.mkBVSgt(*left, *right) : solver_.mkBVUgt(*left, *right);
      case clang::BO_GE: return sign ? solver_.mkBVSge(*left, *right) : solver_.mkBVUge(*left, *right);
      case clang::BO_EQ: return solver_.mkEqual(*left, *right);
      case clang::BO_NE: return solver_.mkNot(solver_.mkEqual(*left, *right));
      default: return std::nullopt;
    }
  }

  const ThreadValues& values_;
  llvm::SMTSolver& solver_;
  const std::set<std::string>& variant_;
  Term coordinate_[2][3];
  std::map<std::string, Term> block_values_;
  std::map<std::pair<const clang::VarDecl*, int>, Term> variables_;
  std::map<std::pair<const clang::Expr*, int>, Term> use_symbols_;
  const ValueSets value_sets_{values_};
  std::map<std::pair<const clang::Expr*, int>, std::optional<Term>> values_memo_;
};

}  // namespace

bool SlotSolver::proves_distinct(const SharedAccess& a, const SharedAccess& b,
                                 const std::set<std::string>& iteration_variant) const {
  if (!values_.shape().known()) return false;
  llvm::SMTSolverRef solver = llvm::CreateZ3Solver();
  solver->setUnsignedParam("timeout", kQueryMilliseconds);
  Encoder encoder(values_, *solver, iteration_variant);
  auto slot_a = encoder.slot(a, 0);
  auto slot_b = encoder.slot(b, 1);
  if (!slot_a || !slot_b) return false;
  encoder.constrain_threads();
  encoder.constrain_path(a, 0);
  encoder.constrain_path(b, 1);
  solver->addConstraint(solver->mkEqual(*slot_a, *slot_b));
  return solver->check() == std::optional<bool>(false);
}

}  // namespace carbide::analysis
