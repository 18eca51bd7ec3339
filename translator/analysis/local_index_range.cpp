#include "analysis/local_index_range.hpp"

#include "analysis/index_bounds.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>

#include <cstdlib>

namespace carbide::analysis {
namespace {

Affine constant(std::int64_t value) {
  Affine form;
  form.constant = value;
  return form;
}

bool provably_non_negative(const Affine& form) {
  return form.local == 0 && form.divisor == 1 && form.symbols.empty() && form.constant >= 0;
}

bool is_lane_read(const clang::Expr* expr) {
  return model::vocabulary::is_witness_read(expr->IgnoreParenImpCasts(), model::vocabulary::Witness::Lane);
}

// `lane.get()` and `L % 32` are both the lane when blocks are one-dimensional rows of warps.
std::optional<std::int64_t> lane_modulus(const ThreadValues& values, const clang::Expr* expr) {
  expr = expr->IgnoreParenImpCasts();
  if (is_lane_read(expr)) return 32;
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(expr); op && op->getOpcode() == clang::BO_Rem) {
    auto lhs = values.affine(op->getLHS());
    auto rhs = values.affine(op->getRHS());
    if (lhs && rhs && rhs->is_constant() && rhs->constant > 0 && lhs->local == 1 &&
        lhs->divisor == 1 && lhs->symbols.empty() && lhs->constant == 0)
      return rhs->constant;
  }
  return std::nullopt;
}

// The form of `expr` where it is the value itself in every thread of the block, not only
// congruent to it: an unsigned form is the value modulo 2^width (`t - 1u` is L - 1, which is
// 4294967295 in thread 0), and an order compares values. A form that is the value modulo 2^width
// and lies within the type's range wherever the value does is the value. A lone uniform symbol
// is its own value.
std::optional<Affine> exact_form(const ThreadValues& values, const clang::Expr* expr) {
  std::optional<Affine> form = values.affine(expr);
  if (!form || form->divisor != 1) return std::nullopt;
  if (!form->symbols.empty()) {
    const bool lone = form->symbols.size() == 1 && form->symbols.begin()->second == 1 &&
                      !form->varies_by_thread() && form->constant == 0;
    return lone ? form : std::nullopt;
  }
  const BlockShape& shape = values.shape();
  if (form->varies_by_thread() && !shape.known()) return std::nullopt;
  __int128 low = form->constant, high = form->constant;
  const auto add_term = [&](std::int64_t coefficient, std::uint64_t extent) {
    const __int128 farthest = __int128(coefficient) * __int128(extent - 1);
    (farthest < 0 ? low : high) += farthest;
  };
  if (form->local != 0) add_term(form->local, *shape.threads());
  if (form->x != 0) add_term(form->x, shape.extent[0]);
  if (form->y != 0) add_term(form->y, shape.extent[1]);
  if (!fitted(IndexRange{low, high}, expr->getType(), values.context())) return std::nullopt;
  return form;
}

clang::BinaryOperatorKind negate(clang::BinaryOperatorKind op) {
  switch (op) {
    case clang::BO_LT: return clang::BO_GE;
    case clang::BO_LE: return clang::BO_GT;
    case clang::BO_GT: return clang::BO_LE;
    case clang::BO_GE: return clang::BO_LT;
    case clang::BO_EQ: return clang::BO_NE;
    case clang::BO_NE: return clang::BO_EQ;
    default: return op;
  }
}

clang::BinaryOperatorKind mirror(clang::BinaryOperatorKind op) {
  switch (op) {
    case clang::BO_LT: return clang::BO_GT;
    case clang::BO_LE: return clang::BO_GE;
    case clang::BO_GT: return clang::BO_LT;
    case clang::BO_GE: return clang::BO_LE;
    default: return op;
  }
}

// Records `L op bound`.
void bound(LocalRange& range, clang::BinaryOperatorKind op, const Affine& limit) {
  switch (op) {
    case clang::BO_LT: range.upper.push_back(limit); break;
    case clang::BO_LE: range.upper.push_back(limit.plus(constant(1))); break;
    case clang::BO_GT: range.lower.push_back(limit.plus(constant(1))); break;
    case clang::BO_GE: range.lower.push_back(limit); break;
    case clang::BO_EQ:
      range.lower.push_back(limit);
      range.upper.push_back(limit.plus(constant(1)));
      if (limit.is_constant()) range.equal = limit.constant;
      break;
    default: break;
  }
}

void add_condition(const ThreadValues& values, const clang::Expr* expr, bool holds,
                   LocalRange& range) {
  expr = expr->IgnoreParenImpCasts();
  if (const auto* logical = llvm::dyn_cast<clang::BinaryOperator>(expr)) {
    if ((logical->getOpcode() == clang::BO_LAnd && holds) ||
        (logical->getOpcode() == clang::BO_LOr && !holds)) {
      add_condition(values, logical->getLHS(), holds, range);
      add_condition(values, logical->getRHS(), holds, range);
      return;
    }
  }
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(expr); op && op->getOpcode() == clang::UO_LNot) {
    add_condition(values, op->getSubExpr(), !holds, range);
    return;
  }
  const auto* comparison = llvm::dyn_cast<clang::BinaryOperator>(expr);
  if (comparison == nullptr || !comparison->isComparisonOp()) return;
  clang::BinaryOperatorKind op = holds ? comparison->getOpcode() : negate(comparison->getOpcode());
  if (op == clang::BO_EQ) {
    for (auto [side, other] : {std::pair{comparison->getLHS(), comparison->getRHS()},
                               std::pair{comparison->getRHS(), comparison->getLHS()}}) {
      auto value = values.affine(other);
      if (auto modulus = lane_modulus(values, side); modulus && value && value->is_constant()) {
        range.modulus = *modulus;
        range.residue = value->constant;
        return;
      }
    }
  }
  auto rhs = exact_form(values, comparison->getRHS());
  if (!rhs) return;
  // (L) / d compared with a constant c: L lies in whole buckets of d (L / d is L's bucket, in any
  // type that holds L).
  if (auto bucket = values.affine(comparison->getLHS());
      bucket && bucket->divisor > 1 && bucket->local == 1 && bucket->x == 0 && bucket->y == 0 &&
      bucket->symbols.empty() && bucket->constant == 0 && rhs->is_constant()) {
    const std::int64_t d = bucket->divisor, c = rhs->constant;
    if (op == clang::BO_EQ) {
      range.lower.push_back(constant(c * d));
      range.upper.push_back(constant(c * d + d));
    } else if (op == clang::BO_LT) {
      range.upper.push_back(constant(c * d));
    }
    return;
  }
  auto lhs = exact_form(values, comparison->getLHS());
  if (!lhs) return;
  Affine difference = lhs->plus(*rhs, -1);  // difference op 0
  if (difference.local == -1) {
    difference = difference.scaled(-1);
    op = mirror(op);
  }
  if (difference.local != 1) return;
  Affine rest = difference;
  rest.local = 0;
  // A bound that holds the thread's own coordinates is another bound in each thread.
  if (rest.x != 0 || rest.y != 0) return;
  bound(range, op, rest.scaled(-1));  // L op -rest
}

}  // namespace

LocalRange local_range_for(const ThreadValues& values, const clang::Stmt* statement) {
  LocalRange range;
  range.lower.push_back(constant(0));
  if (auto threads = values.shape().threads()) range.upper.push_back(constant(std::int64_t(*threads)));
  for (const ControlCondition& condition : values.control().conditions_for(statement))
    if (condition.holds) add_condition(values, condition.expr, *condition.holds, range);
  return range;
}

std::optional<Affine> index_form(const ThreadValues& values, const clang::Expr* index) {
  const clang::Expr* stripped = index->IgnoreParenImpCasts();
  if (is_local_witness(stripped)) {
    Affine local;
    local.local = 1;
    return local;
  }
  return values.affine(index);
}

// Slots x·tx + y·ty + c and x·tx + y·ty + c' of two threads of an X×Y block meet only if
// x·Δx + y·Δy = c' − c for some Δ ≠ 0 within the block: the padded tile `tile[ty * 33 + tx]`
// never does, nor do the two halves `row[(ty − 8) * 32 + tx]` and `row[(ty − 8) * 32 + 16 + tx]`
// of a 16-wide block. A block has at most 1024 rows, so every Δy is tried.
bool coordinates_never_meet(const Affine& a, const Affine& b, const BlockShape& shape) {
  if (a.local || b.local || a.divisor != 1 || b.divisor != 1 || a.x != b.x || a.y != b.y ||
      a.symbols != b.symbols || !shape.known() || shape.extent[2] != 1)
    return false;
  const std::int64_t width = std::int64_t(shape.extent[0]), height = std::int64_t(shape.extent[1]);
  const std::int64_t distance = b.constant - a.constant;
  for (std::int64_t dy = -(height - 1); dy <= height - 1; ++dy) {
    const std::int64_t rest = distance - a.y * dy;  // = x·Δx
    if (a.x == 0) {
      if (rest == 0 && (dy != 0 || width > 1)) return false;
      continue;
    }
    if (rest % a.x != 0) continue;
    const std::int64_t dx = rest / a.x;
    if (std::abs(dx) <= width - 1 && (dx != 0 || dy != 0)) return false;
  }
  return true;
}

bool distinct_for_different_threads(const Affine& a, const LocalRange& ra, const Affine& b,
                                    const LocalRange& rb, const BlockShape& shape) {
  if (a.x || a.y || b.x || b.y) return coordinates_never_meet(a, b, shape);
  // One slot per warp, written by lane 0 only: `partial[lid / 32]` under `lane == 0`.
  if (a.divisor != 1 || b.divisor != 1) {
    // Only for a dividend never negative: division truncates toward zero, so -5 / 32 and 27 / 32
    // are both 0.
    return a == b && a.local == 1 && a.symbols.empty() && a.x == 0 && a.y == 0 && a.constant >= 0 &&
           ra.modulus % a.divisor == 0 &&
           rb.modulus % a.divisor == 0 && ra.residue == rb.residue;
  }
  if (a.local == 0 && b.local == 0) {
    const Affine difference = a.plus(b, -1);
    if (difference.is_constant() && difference.constant != 0) return true;
    // The same slot is safe only if a single thread can reach it.
    return ra.equal && rb.equal && *ra.equal == *rb.equal;
  }
  if (a.local != b.local) return false;
  // a.local·(L - L') = b.rest - a.rest: impossible when L - L' cannot reach that distance.
  Affine distance = b.plus(a, -1);
  distance.local = 0;
  if (distance.is_constant() && distance.constant == 0) return true;  // only L == L'
  if (distance.is_constant() && distance.constant % a.local != 0) return true;
  if (a.local != 1) return false;
  std::vector<Affine> upper_a = ra.upper, lower_a = ra.lower, upper_b = rb.upper, lower_b = rb.lower;
  for (const Affine& high : upper_a)
    for (const Affine& low : lower_b)
      if (provably_non_negative(distance.plus(high, -1).plus(low))) return true;  // L - L' < high - low <= distance
  for (const Affine& low : lower_a)
    for (const Affine& high : upper_b)
      if (provably_non_negative(low.plus(high, -1).plus(distance, -1))) return true;  // distance <= low - high < L - L'
  return false;
}

}  // namespace carbide::analysis
