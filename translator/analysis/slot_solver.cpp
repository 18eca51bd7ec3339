#include "analysis/slot_solver.hpp"

#include "analysis/loop_steps.hpp"
#include "analysis/value_sets.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/ExprCXX.h>
#include <llvm/ADT/APSInt.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/Support/SMTAPI.h>

#include <map>
#include <tuple>
#include <utility>
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
  // `scope` prefixes the symbols this encoder makes up, so that a second encoder on the same
  // solver (a helper's, below) never shares one by accident; the threads' coordinates and the
  // block's values are the same symbols in every encoder. In a helper (`in_helper`) every local
  // may differ between the two accesses: the whole call runs in one phase, so two threads may be
  // in different iterations of its loops.
  Encoder(const ThreadValues& values, llvm::SMTSolver& solver, const std::set<std::string>& variant,
          std::string scope = "", bool in_helper = false)
      : values_(values), solver_(solver), variant_(variant), scope_(std::move(scope)), in_helper_(in_helper) {
    for (int side = 0; side < 2; ++side)
      for (int axis = 0; axis < 3; ++axis)
        coordinate_[side][axis] = shared_symbol("t" + std::to_string(axis) + "." + std::to_string(side), 32);
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
  void constrain_path(const SharedAccess& access, int side) { constrain_path(access.expr, side); }
  void constrain_path(const clang::Stmt* site, int side) {
    for (const ControlCondition& condition : values_.control().conditions_for(site)) {
      if (!condition.holds) continue;
      if (auto test = truth(condition.expr, side, 0))
        solver_.addConstraint(*condition.holds ? *test : solver_.mkNot(*test));
    }
  }

  // The access runs in the loop's last iteration: the test after this iteration's step fails.
  void constrain_last_iteration(const clang::Stmt* statement, int side) {
    const auto* loop = llvm::dyn_cast<clang::ForStmt>(statement);
    const clang::VarDecl* counter = loop ? analysis::loop_counter(values_, loop) : nullptr;
    if (counter == nullptr || loop->getCond() == nullptr) return;
    const int owner = values_.uniformity(loop->getCond()) == Uniformity::Uniform &&
                              !variant_.count(symbol_key(counter))
                          ? kShared
                          : side;
    const auto motion = counter_motion(counter, *loop, owner, 0);
    if (!motion) return;
    const Term next = moved(*motion, solver_.mkBVAdd(iteration(loop, owner), constant(1, 64)));
    if (auto test = truth_with(loop->getCond(), counter, next, owner == kShared ? 0 : side))
      solver_.addConstraint(solver_.mkNot(*test));
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

  Term symbol(const std::string& name, unsigned bits) { return shared_symbol(scope_ + name, bits); }
  Term shared_symbol(const std::string& name, unsigned bits) {
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
    if (added) found->second = shared_symbol("block." + name, bits);
    return found->second;
  }

  std::optional<Term> value(const clang::Expr* expr, int side, int depth) {
    if (depth > kMaxDepth || expr == nullptr || !is_integer(expr)) return std::nullopt;
    if (!bound_.empty()) return encode(expr, side, depth);  // a value under substitution
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

  // `view.get_mut_block(lid)` or `view.get_mut_warp_leader(w)`, or a pointer given its value once
  // from one: the claim.
  const clang::CXXMemberCallExpr* leader_claim(const clang::Expr* pointer) const {
    pointer = pointer->IgnoreParenImpCasts();
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(pointer)) {
      const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
      const clang::Expr* init = var ? values_.sole_initializer(var) : nullptr;
      if (init == nullptr) return nullptr;
      pointer = init->IgnoreParenImpCasts();
    }
    const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(pointer);
    return call != nullptr && vocabulary::leader_claim(call->getMethodDecl()) ? call : nullptr;
  }

  // A leader form's pointer tested for null: non-null only for the first thread of its block
  // (local index 0) or of its warp (lane 0), and for it only while its element lies inside the
  // view, which the solver leaves open: one unknown for the whole block (its block number), one
  // for each thread's warp (its warp number).
  Term leader_present(const clang::CXXMemberCallExpr* claim, int side) {
    const std::string site = std::to_string(claim->getID(values_.context()));
    if (*vocabulary::leader_claim(claim->getMethodDecl()) == vocabulary::Leader::Block)
      return solver_.mkAnd(solver_.mkEqual(local(side), constant(0, 32)),
                           solver_.mkEqual(block_value("leader_inside." + site, 1), constant(1, 1)));
    const Term lane = solver_.mkBVAnd(local(side), constant(31, 32));
    const Term inside = shared_symbol("warp_leader_inside." + site + "." + std::to_string(side), 1);
    return solver_.mkAnd(solver_.mkEqual(lane, constant(0, 32)), solver_.mkEqual(inside, constant(1, 1)));
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
    const bool changes = in_helper_ || variant_.count(symbol_key(var)) != 0;
    // Kernel arguments and other values the whole block shares, in every iteration alike. A
    // parameter the body assigns or lets escape is any value at each use, the thread's own.
    if (const auto* parameter = llvm::dyn_cast<clang::ParmVarDecl>(var);
        parameter && (values_.escapes(parameter) || values_.reassigned(parameter)))
      return use_symbol(ref, side, bits).first;
    if (llvm::isa<clang::ParmVarDecl>(var) || var->hasGlobalStorage()) {
      if (!uniform) return std::nullopt;
      return block_value(symbol_key(var), bits);
    }
    // A local that escapes: its definitions are not all known.
    if (values_.escapes(var)) return use_symbol(ref, side, bits).first;
    const int owner = uniform && !changes ? kShared : side;
    if (auto bound = bound_.find(var); bound != bound_.end()) return bound->second;
    if (const clang::ForStmt* loop = values_.counted_loop(var))
      return counter_value(var, *loop, owner, depth);
    // A variable given its value once stands for its initializer.
    if (const clang::Expr* init = values_.sole_initializer(var)) {
      if (auto term = value_as(init, var->getType(), side, depth + 1)) return term;
      // An initializer it cannot encode (a load, a call): any value, the thread's own, the same
      // at each use, since nothing assigns the variable again (cuda-samples histogram64's
      // `data`, which selects a row of the thread's own column).
      return variable_symbol(var, side);
    }
    // Where one definition reaches the use, the variable is what that definition assigned
    // (`pin = 1 - pout` just above the read)...
    if (auto reaching = values_.reaching_definitions(ref); reaching && reaching->size() == 1) {
      const clang::Stmt* site = reaching->front();
      if (site == var->getInit()) return value_as(var->getInit(), var->getType(), side, depth + 1);
      if (const auto* assign = llvm::dyn_cast<clang::BinaryOperator>(site);
          assign && assign->getOpcode() == clang::BO_Assign)
        return value_as(assign->getRHS(), var->getType(), side, depth + 1);
      // ...or the value before a step, stepped (cuda-samples scan's `pos += size`).
      if (auto stepped = step_value(site, var, side, depth)) return stepped;
    }
    // A variable loops step in time with their counters (Blelloch's `offset`).
    if (auto stepped = stepped_value(values_, ref))
      if (auto term = stepped_term(*stepped, var, owner, depth)) return term;
    // ...and elsewhere one of the few values its definitions can produce (0 or 1 for a
    // double buffer's `pout = 1 - pout`), the same for both threads where it is uniform.
    if (auto possible = value_sets_.of(var)) return one_of(*possible, ref, owner, bits);
    if (uniform) return variable_symbol(var, owner);
    // Definitions it cannot follow: any value at this use, the thread's own; each use its own,
    // since an assignment may lie between two of them.
    return use_symbol(ref, side, bits).first;
  }

  // The value a step gives `var`, `pos += size` or `++pos`, from its value at the step, where one
  // definition reaches that too. Only the operations whose low bits depend on their operands'
  // low bits alone, so computing in the variable's width is exact whatever the step's type.
  std::optional<Term> step_value(const clang::Stmt* site, const clang::VarDecl* var, int side, int depth) {
    const clang::Expr* target = nullptr;
    std::optional<Term> amount;
    clang::BinaryOperatorKind op = clang::BO_Add;
    if (const auto* compound = llvm::dyn_cast<clang::CompoundAssignOperator>(site)) {
      op = clang::BinaryOperator::getOpForCompoundAssignment(compound->getOpcode());
      if (op != clang::BO_Add && op != clang::BO_Sub && op != clang::BO_Mul && op != clang::BO_And &&
          op != clang::BO_Or && op != clang::BO_Xor)
        return std::nullopt;
      target = compound->getLHS();
      amount = value_as(compound->getRHS(), var->getType(), side, depth + 1);
    } else if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(site); unary && unary->isIncrementDecrementOp()) {
      op = unary->isIncrementOp() ? clang::BO_Add : clang::BO_Sub;
      target = unary->getSubExpr();
      amount = constant(1, width(var->getType()));
    }
    const auto* before = target ? llvm::dyn_cast<clang::DeclRefExpr>(target->IgnoreParens()) : nullptr;
    if (before == nullptr || before->getDecl() != var || !amount) return std::nullopt;
    const std::optional<Term> previous = value(before, side, depth + 1);
    if (!previous) return std::nullopt;
    return combine(op, *previous, *amount, var->getType()->isSignedIntegerOrEnumerationType());
  }

  // The value at one use of a variable, `owner`'s; true with it when the symbol is new.
  std::pair<Term, bool> use_symbol(const clang::DeclRefExpr* use, int owner, unsigned bits) {
    auto [found, added] = use_symbols_.try_emplace({use, owner}, nullptr);
    if (added) found->second = symbol("use" + std::to_string(use_symbols_.size()) + "." + std::to_string(owner), bits);
    return {found->second, added};
  }

  Term one_of(const std::set<std::int64_t>& possible, const clang::DeclRefExpr* use, int owner, unsigned bits) {
    const auto [value, added] = use_symbol(use, owner, bits);
    if (!added) return value;
    Term any = solver_.mkBoolean(false);
    for (std::int64_t possibility : possible)
      any = solver_.mkOr(any, solver_.mkEqual(value, constant(std::uint64_t(possibility), bits)));
    solver_.addConstraint(any);
    return value;
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

  // How a loop moves a counter or a stepped variable: an addend each iteration, or a shift.
  struct Motion {
    Term start;
    Step::Kind kind = Step::Kind::Add;
    Term amount;  // Add: the signed addend in the value's width; shifts: bits per step, 64-bit
    unsigned bits = 32;
    bool is_signed = false;
    bool toward_zero = false;  // a signed `/= 2^c`
    bool down = false;         // Add: the addend is negative
  };

  Motion motion_of(const Step& step, Term start, unsigned bits, bool is_signed) {
    Motion motion{start, step.kind, {}, bits, is_signed, step.toward_zero, step.amount < 0};
    motion.amount = step.kind == Step::Kind::Add ? constant(std::uint64_t(step.amount), bits)
                                                 : constant(std::uint64_t(step.amount), 64);
    return motion;
  }

  // The value after `count` (64-bit) steps. Shifting k times by c is one shift by k·c, which
  // empties (or sign-fills) the value once k·c reaches its width, as the bit-vector shifts do.
  Term moved(const Motion& motion, Term count) {
    if (motion.kind == Step::Kind::Add)
      return solver_.mkBVAdd(motion.start, solver_.mkBVMul(resized(count, 64, motion.bits, false), motion.amount));
    const Term width = constant(motion.bits, 64);
    Term total = solver_.mkIte(solver_.mkBVUle(count, width), solver_.mkBVMul(count, motion.amount), width);
    total = solver_.mkIte(solver_.mkBVUle(total, width), total, width);
    const Term shift = resized(total, 64, motion.bits, false);
    if (motion.kind == Step::Kind::ShiftLeft) return solver_.mkBVShl(motion.start, shift);
    const Term shifted = motion.is_signed ? solver_.mkBVAshr(motion.start, shift) : solver_.mkBVLshr(motion.start, shift);
    if (!motion.toward_zero) return shifted;
    // Division rounds toward zero: the shift is right from a start that is not negative;
    // from a negative one the value is left unknown.
    const Term unknown = symbol("unknown" + std::to_string(unknowns_++), motion.bits);
    return solver_.mkIte(solver_.mkBVSge(motion.start, constant(0, motion.bits)), shifted, unknown);
  }

  // How many iterations of `loop` have run: shared by its counter and the variables it steps.
  Term iteration(const clang::Stmt* loop, int owner) {
    auto [found, added] = iterations_.try_emplace({loop, owner}, nullptr);
    if (added) found->second = symbol("k" + std::to_string(iterations_.size()) + "." + std::to_string(owner), 64);
    return found->second;
  }

  // The motion of a counter declared in a for loop's head: from its initializer by the loop's
  // step, a constant (`+= 8`, `*= 2`, `>>= 1`) or a block-uniform unsigned stride (blockDim.x).
  std::optional<Motion> counter_motion(const clang::VarDecl* var, const clang::ForStmt& loop, int owner, int depth) {
    // Per counter: a loop may step several (`v <<= 1, ++m`), each its own way.
    const auto key = std::make_tuple(static_cast<const clang::Stmt*>(&loop), var, owner);
    if (auto found = motions_.find(key); found != motions_.end()) return found->second;
    const auto outer_bindings = std::exchange(bound_, {});
    const std::optional<Motion> motion = find_counter_motion(var, loop, owner, depth);
    bound_ = outer_bindings;
    motions_[key] = motion;
    return motion;
  }

  std::optional<Motion> find_counter_motion(const clang::VarDecl* var, const clang::ForStmt& loop, int owner, int depth) {
    const llvm::ArrayRef<const clang::Stmt*> sites = values_.definition_sites(var);
    const clang::Expr* step = sites.size() == 2 ? step_in(loop.getInc(), sites[1]) : nullptr;
    if (!var->getInit() || step == nullptr) return std::nullopt;  // assigned elsewhere too: any value
    const int side = owner == kShared ? 0 : owner;
    auto start = value_as(var->getInit(), var->getType(), side, depth + 1);
    if (!start) return std::nullopt;
    const unsigned bits = width(var->getType());
    const bool is_signed = var->getType()->isSignedIntegerOrEnumerationType();
    if (auto known = constant_step(step, values_)) return motion_of(*known, *start, bits, is_signed);
    const auto* compound = llvm::dyn_cast<clang::CompoundAssignOperator>(step);
    if (compound == nullptr || (compound->getOpcode() != clang::BO_AddAssign && compound->getOpcode() != clang::BO_SubAssign) ||
        values_.uniformity(compound->getRHS()) != Uniformity::Uniform ||
        !compound->getRHS()->getType()->isUnsignedIntegerType())
      return std::nullopt;  // a stride whose sign is not known
    auto magnitude = value_as(compound->getRHS(), var->getType(), side, depth + 1);
    if (!magnitude) return std::nullopt;
    const bool down = compound->getOpcode() == clang::BO_SubAssign;
    return Motion{*start, Step::Kind::Add, down ? solver_.mkBVNeg(*magnitude) : *magnitude, bits, is_signed, false, down};
  }

  // Whether the step from any value that passes the loop's test wraps around (or, doubling,
  // shifts bits out), as a second, separate query: when no value the test lets into the body can
  // wrap, no iteration's counter has wrapped, since each was one the test let in. A test on
  // another variable (or an unknown bound the counter may reach the top of) proves nothing.
  bool proves_no_wrap(const clang::VarDecl* var, const clang::ForStmt& loop) {
    if (loop.getCond() == nullptr) return false;
    const auto key = std::make_pair(&loop, var);
    if (auto found = no_wrap_.find(key); found != no_wrap_.end()) return found->second;
    no_wrap_[key] = false;  // asked again while answering: not proven
    llvm::SMTSolverRef proof = llvm::CreateZ3Solver();
    proof->setUnsignedParam("timeout", SlotSolver::kQueryMilliseconds);
    Encoder inner(values_, *proof, variant_, scope_ + "wrap.", in_helper_);
    const auto motion = inner.counter_motion(var, loop, 0, 0);
    if (!motion || (motion->kind != Step::Kind::Add && motion->kind != Step::Kind::ShiftLeft)) return false;
    const Term value = inner.symbol("value", motion->bits);
    const auto passes = inner.truth_with(loop.getCond(), var, value, 0);
    if (!passes) return false;
    proof->addConstraint(*passes);
    proof->addConstraint(inner.wraps(*motion, value));
    return no_wrap_[key] = proof->check() == std::optional<bool>(false);
  }

  // Whether one step from `value` leaves the range its type holds (or shifts bits out).
  Term wraps(const Motion& motion, Term value) {
    if (motion.kind == Step::Kind::ShiftLeft) {
      const Term by = resized(motion.amount, 64, motion.bits, false);
      const Term shifted = solver_.mkBVShl(value, by);
      const Term back = motion.is_signed ? solver_.mkBVAshr(shifted, by) : solver_.mkBVLshr(shifted, by);
      return solver_.mkOr(solver_.mkBVUge(motion.amount, constant(motion.bits, 64)),
                          solver_.mkNot(solver_.mkEqual(back, value)));
    }
    const Term next = solver_.mkBVAdd(value, motion.amount);  // amount is negative when down
    if (motion.down) return motion.is_signed ? solver_.mkBVSgt(next, value) : solver_.mkBVUgt(next, value);
    return motion.is_signed ? solver_.mkBVSlt(next, value) : solver_.mkBVUlt(next, value);
  }

  // A counter declared in a for loop's head: its start moved by the loop's step once per
  // iteration so far, wrapping as its type wraps. Where the loop's test proves that it never
  // wraps (proves_no_wrap), it also stays on the side of its start the loop moves to, a whole
  // number of strides away. The loop's condition reaches the access as a path condition.
  std::optional<Term> counter_value(const clang::VarDecl* var, const clang::ForStmt& loop, int owner, int depth) {
    if (auto found = variables_.find({var, owner}); found != variables_.end()) return found->second;
    const Term counter = variable_symbol(var, owner);
    const auto motion = counter_motion(var, loop, owner, depth);
    if (!motion) return counter;
    solver_.addConstraint(solver_.mkEqual(counter, moved(*motion, iteration(&loop, owner))));
    if (!proves_no_wrap(var, loop)) return counter;
    if (motion->kind == Step::Kind::ShiftLeft) {
      // Doubling does not wrap either: the counter has not shifted its start's bits out (reduce1's
      // `s *= 2` is a power of two, never 0, where `s < 256` would otherwise hold for ever).
      const Term zero = constant(0, motion->bits);
      solver_.addConstraint(motion->is_signed
                                ? solver_.mkOr(solver_.mkBVSlt(motion->start, zero),
                                               solver_.mkBVSge(counter, motion->start))
                                : solver_.mkBVUge(counter, motion->start));
    }
    if (motion->kind != Step::Kind::Add) return counter;
    // Without wrapping, the distance from the start is a whole number of strides.
    const Term distance = motion->down ? solver_.mkBVSub(motion->start, counter) : solver_.mkBVSub(counter, motion->start);
    const Term stride = motion->down ? solver_.mkBVNeg(motion->amount) : motion->amount;
    solver_.addConstraint(solver_.mkEqual(solver_.mkBVURem(distance, stride), constant(0, motion->bits)));
    solver_.addConstraint(motion->down ? (motion->is_signed ? solver_.mkBVSle(counter, motion->start)
                                                            : solver_.mkBVUle(counter, motion->start))
                                       : (motion->is_signed ? solver_.mkBVSge(counter, motion->start)
                                                            : solver_.mkBVUge(counter, motion->start)));
    return counter;
  }

  // `test` with `var` standing for `value`.
  std::optional<Term> truth_with(const clang::Expr* test, const clang::VarDecl* var, Term value, int side) {
    if (!bound_.emplace(var, value).second) return std::nullopt;
    auto result = truth(test, side, 0);
    bound_.erase(var);
    return result;
  }

  // How many iterations a block-uniform counted loop runs: its test fails after that many
  // steps and held one step before.
  std::optional<Term> trip_count(const clang::ForStmt* loop, int owner, int depth) {
    const auto key = std::make_pair(static_cast<const clang::Stmt*>(loop), owner);
    if (auto found = trips_.find(key); found != trips_.end()) return found->second;
    const auto outer_bindings = std::exchange(bound_, {});
    std::optional<Term> trips;
    const clang::VarDecl* counter = analysis::loop_counter(values_, loop);
    const auto motion = counter && loop->getCond() && values_.uniformity(loop->getCond()) == Uniformity::Uniform
                            ? counter_motion(counter, *loop, owner, depth)
                            : std::nullopt;
    if (motion) {
      const Term count = symbol("trips" + std::to_string(trips_.size()) + "." + std::to_string(owner), 64);
      const int side = owner == kShared ? 0 : owner;
      auto fails = truth_with(loop->getCond(), counter, moved(*motion, count), side);
      auto held = truth_with(loop->getCond(), counter, moved(*motion, solver_.mkBVSub(count, constant(1, 64))), side);
      if (fails && held) {
        solver_.addConstraint(solver_.mkNot(*fails));
        solver_.addConstraint(solver_.mkOr(solver_.mkEqual(count, constant(0, 64)), *held));
        trips = count;
      }
    }
    bound_ = outer_bindings;
    trips_[key] = trips;
    return trips;
  }

  // A variable the loops step (analysis/loop_steps.hpp): its initializer moved by the finished
  // loops' whole runs and the current loop's iterations so far.
  std::optional<Term> stepped_term(const SteppedValue& stepped, const clang::VarDecl* var, int owner, int depth) {
    const unsigned bits = width(var->getType());
    const bool is_signed = var->getType()->isSignedIntegerOrEnumerationType();
    auto value = value_as(stepped.start, var->getType(), owner == kShared ? 0 : owner, depth + 1);
    if (!value) return std::nullopt;
    for (const LoopRun& run : stepped.finished) {
      auto runs = run.loop == nullptr ? std::optional(constant(1, 64)) : trip_count(run.loop, owner, depth + 1);
      if (!runs) return std::nullopt;
      value = moved(motion_of(run.step, *value, bits, is_signed), *runs);
    }
    if (stepped.current) {
      Term steps = iteration(stepped.current->loop, owner);
      if (stepped.after_step) steps = solver_.mkBVAdd(steps, constant(1, 64));
      value = moved(motion_of(stepped.current->step, *value, bits, is_signed), steps);
    }
    return value;
  }

  std::optional<Term> arithmetic(const clang::BinaryOperator* op, int side, int depth) {
    if (op->isComparisonOp() || op->isLogicalOp() || op->isAssignmentOp() || op->getOpcode() == clang::BO_Comma)
      return std::nullopt;
    const clang::QualType type = op->getType();
    auto left = value_as(op->getLHS(), type, side, depth + 1);
    auto right = value_as(op->getRHS(), type, side, depth + 1);
    if (!left || !right) return std::nullopt;
    return combine(op->getOpcode(), *left, *right, type->isSignedIntegerOrEnumerationType());
  }

  // `left op right` in the operands' width; nullopt for an operator that is not arithmetic.
  std::optional<Term> combine(clang::BinaryOperatorKind op, Term left, Term right, bool sign) {
    switch (op) {
      case clang::BO_Add: return solver_.mkBVAdd(left, right);
      case clang::BO_Sub: return solver_.mkBVSub(left, right);
      case clang::BO_Mul: return solver_.mkBVMul(left, right);
      case clang::BO_Div: return sign ? solver_.mkBVSDiv(left, right) : solver_.mkBVUDiv(left, right);
      case clang::BO_Rem: return sign ? solver_.mkBVSRem(left, right) : solver_.mkBVURem(left, right);
      case clang::BO_And: return solver_.mkBVAnd(left, right);
      case clang::BO_Or: return solver_.mkBVOr(left, right);
      case clang::BO_Xor: return solver_.mkBVXor(left, right);
      case clang::BO_Shl: return solver_.mkBVShl(left, right);
      case clang::BO_Shr: return sign ? solver_.mkBVAshr(left, right) : solver_.mkBVLshr(left, right);
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
      if (cast->getCastKind() == clang::CK_PointerToBoolean)
        if (const clang::CXXMemberCallExpr* claim = leader_claim(cast->getSubExpr()))
          return leader_present(claim, side);
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
  const std::string scope_;
  const bool in_helper_;
  Term coordinate_[2][3];
  std::map<std::string, Term> block_values_;
  std::map<std::pair<const clang::VarDecl*, int>, Term> variables_;
  std::map<std::pair<const clang::Expr*, int>, Term> use_symbols_;
  std::map<std::pair<const clang::Stmt*, int>, Term> iterations_;
  std::map<std::tuple<const clang::Stmt*, const clang::VarDecl*, int>, std::optional<Motion>> motions_;
  std::map<std::pair<const clang::Stmt*, int>, std::optional<Term>> trips_;
  std::map<const clang::VarDecl*, Term> bound_;  // variables standing for a given value
  std::map<std::pair<const clang::ForStmt*, const clang::VarDecl*>, bool> no_wrap_;  // proves_no_wrap's answers
  unsigned unknowns_ = 0;
  const ValueSets value_sets_{values_};
  std::map<std::pair<const clang::Expr*, int>, std::optional<Term>> values_memo_;
};

}  // namespace

bool SlotSolver::proves_distinct(const SharedAccess& a, const SharedAccess& b,
                                 const std::set<std::string>& iteration_variant,
                                 const std::vector<const clang::Stmt*> (&last_iteration_of)[2]) const {
  if (!values_.shape().known() || a.index == nullptr || b.index == nullptr) return false;
  llvm::SMTSolverRef solver = llvm::CreateZ3Solver();
  solver->setUnsignedParam("timeout", kQueryMilliseconds);
  Encoder encoder(values_, *solver, iteration_variant);
  // An index in a helper's terms is encoded with the helper's values, by an encoder of its own.
  std::vector<std::unique_ptr<Encoder>> helpers;
  auto slot = [&](const SharedAccess& access, int side) -> std::optional<Term> {
    if (access.index_in == nullptr) return encoder.slot(access, side);
    const ThreadValues* values = helper_values_ ? helper_values_(access.index_in) : nullptr;
    if (values == nullptr || !(values->shape() == values_.shape())) return std::nullopt;
    helpers.push_back(std::make_unique<Encoder>(*values, *solver, iteration_variant,
                                                "h" + std::to_string(side) + ".", true));
    auto term = helpers.back()->slot(access, side);
    // What holds on the way to the access inside the helper (its loops' tests among them); the
    // caller's encoder adds what holds at the call.
    if (term) helpers.back()->constrain_path(access.in_helper, side);
    return term;
  };
  auto slot_a = slot(a, 0);
  auto slot_b = slot(b, 1);
  if (!slot_a || !slot_b) return false;
  encoder.constrain_threads();
  encoder.constrain_path(a, 0);
  encoder.constrain_path(b, 1);
  for (int side = 0; side < 2; ++side)
    for (const clang::Stmt* loop : last_iteration_of[side]) encoder.constrain_last_iteration(loop, side);
  solver->addConstraint(solver->mkEqual(*slot_a, *slot_b));
  return solver->check() == std::optional<bool>(false);
}

}  // namespace carbide::analysis
