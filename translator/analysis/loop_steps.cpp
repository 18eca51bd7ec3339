#include "analysis/loop_steps.hpp"

#include "analysis/thread_values.hpp"

#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/Support/MathExtras.h>

#include <algorithm>

namespace carbide::analysis {
namespace {

bool jumps_inside(const clang::Stmt* body) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    bool found = false;
    bool VisitStmt(clang::Stmt* statement) {
      found = found || llvm::isa<clang::BreakStmt, clang::ContinueStmt, clang::GotoStmt, clang::IndirectGotoStmt>(statement);
      return !found;
    }
  } finder;
  finder.TraverseStmt(const_cast<clang::Stmt*>(body));
  return finder.found;
}

// True when `site` is the loop's increment or one operand of its comma list.
bool in_increment(const ThreadValues& values, const clang::Stmt* site, const clang::ForStmt* loop) {
  for (const clang::Stmt* at = site; at != nullptr; at = values.parents().getParentIgnoreParens(at)) {
    if (at == loop->getInc()) return true;
    const auto* comma = llvm::dyn_cast_or_null<clang::BinaryOperator>(values.parents().getParentIgnoreParens(at));
    if (comma == nullptr || !comma->isCommaOp()) return false;
  }
  return false;
}

// Where in its loop a step is taken: the index of its statement in the body, or, for the
// increment, one past the body's last statement.
struct StepSite {
  const clang::ForStmt* loop = nullptr;
  std::size_t position = 0;
};

// Where `statement` stands among `block`'s statements.
std::size_t position_in(const clang::CompoundStmt* block, const clang::Stmt* statement) {
  return std::size_t(std::find(block->body_begin(), block->body_end(), statement) - block->body_begin());
}

std::size_t body_size(const clang::ForStmt* loop) {
  const auto* body = llvm::dyn_cast<clang::CompoundStmt>(loop->getBody());
  return body ? body->size() : 1;
}

std::optional<StepSite> step_site(const ThreadValues& values, const clang::Stmt* site) {
  const clang::Stmt* parent = values.parents().getParent(site);
  if (const auto* loop = llvm::dyn_cast_or_null<clang::ForStmt>(parent); loop && loop->getBody() == site)
    return StepSite{loop, 0};
  if (const auto* body = llvm::dyn_cast_or_null<clang::CompoundStmt>(parent)) {
    const auto* loop = llvm::dyn_cast_or_null<clang::ForStmt>(values.parents().getParent(body));
    if (loop == nullptr || loop->getBody() != body) return std::nullopt;
    return StepSite{loop, position_in(body, site)};
  }
  for (const clang::Stmt* at = parent; at != nullptr; at = values.parents().getParent(at))
    if (const auto* loop = llvm::dyn_cast<clang::ForStmt>(at))
      return in_increment(values, site, loop) ? std::optional(StepSite{loop, body_size(loop)}) : std::nullopt;
  return std::nullopt;
}

// The statement of `block` that holds `statement`, and whether the way up crosses a lambda
// (whose body runs where it is called, not where it is written).
const clang::Stmt* statement_in(const ThreadValues& values, const clang::Stmt* statement,
                                const clang::CompoundStmt* block) {
  for (const clang::Stmt* at = statement; at != nullptr;) {
    const clang::Stmt* parent = values.parents().getParent(at);
    if (parent == block) return at;
    if (parent == nullptr || llvm::isa<clang::LambdaExpr>(parent)) return nullptr;
    at = parent;
  }
  return nullptr;
}

// Where in the loop `use` is read: before or after the step at `site`; none where it cannot
// tell (the use in the increment beside the step, or in the loop's head declarations).
std::optional<bool> after_step(const ThreadValues& values, const clang::DeclRefExpr* use, const StepSite& site) {
  const clang::ForStmt* loop = site.loop;
  for (const clang::Stmt* at = use; at != nullptr; at = values.parents().getParent(at)) {
    const clang::Stmt* parent = values.parents().getParent(at);
    if (parent != loop) continue;
    if (at == loop->getCond()) return false;
    if (at == loop->getInc()) return site.position == body_size(loop) ? std::nullopt : std::optional(true);
    if (at != loop->getBody()) return std::nullopt;
    const auto* body = llvm::dyn_cast<clang::CompoundStmt>(loop->getBody());
    if (body == nullptr) return std::nullopt;
    const clang::Stmt* holder = statement_in(values, use, body);
    if (holder == nullptr) return std::nullopt;
    const std::size_t position = position_in(body, holder);
    if (position == site.position) return std::nullopt;
    return position > site.position;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Step> constant_step(const clang::Stmt* site, const ThreadValues& values) {
  if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(site))
    return unary->isIncrementDecrementOp() ? std::optional(Step{Step::Kind::Add, unary->isIncrementOp() ? 1 : -1})
                                           : std::nullopt;
  const auto* compound = llvm::dyn_cast<clang::CompoundAssignOperator>(site);
  if (compound == nullptr) return std::nullopt;
  const auto by = values.constant(compound->getRHS());
  if (!by) return std::nullopt;
  const clang::QualType type = compound->getLHS()->getType();
  const std::int64_t bits = std::int64_t(values.context().getIntWidth(type));
  const bool power_of_two = *by > 1 && (*by & (*by - 1)) == 0;
  const std::int64_t log2 = power_of_two ? std::int64_t(llvm::Log2_64(std::uint64_t(*by))) : 0;
  switch (compound->getOpcode()) {
    case clang::BO_AddAssign: return Step{Step::Kind::Add, *by};
    case clang::BO_SubAssign: return Step{Step::Kind::Add, -*by};
    case clang::BO_ShlAssign:
      if (*by > 0 && *by < bits) return Step{Step::Kind::ShiftLeft, *by};
      return std::nullopt;
    case clang::BO_ShrAssign:
      if (*by > 0 && *by < bits) return Step{Step::Kind::ShiftRight, *by};
      return std::nullopt;
    case clang::BO_MulAssign:
      if (power_of_two) return Step{Step::Kind::ShiftLeft, log2};
      return std::nullopt;
    case clang::BO_DivAssign:
      if (power_of_two) return Step{Step::Kind::ShiftRight, log2, type->isSignedIntegerOrEnumerationType()};
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

const clang::VarDecl* loop_counter(const ThreadValues& values, const clang::ForStmt* loop) {
  const auto* head = llvm::dyn_cast_or_null<clang::DeclStmt>(loop->getInit());
  if (head == nullptr || !head->isSingleDecl()) return nullptr;
  const auto* var = llvm::dyn_cast<clang::VarDecl>(head->getSingleDecl());
  if (var == nullptr || values.counted_loop(var) != loop || !var->getInit()) return nullptr;
  const llvm::ArrayRef<const clang::Stmt*> sites = values.definition_sites(var);
  if (sites.size() != 2 || !in_increment(values, sites[1], loop)) return nullptr;
  return var;
}

std::optional<SteppedValue> stepped_value(const ThreadValues& values, const clang::DeclRefExpr* use) {
  const auto* var = llvm::dyn_cast<clang::VarDecl>(use->getDecl());
  if (var == nullptr || !var->isLocalVarDecl() || var->getType()->isReferenceType() ||
      var->getType().isVolatileQualified() || !var->getInit() || values.counted_loop(var) != nullptr)
    return std::nullopt;
  const llvm::ArrayRef<const clang::Stmt*> sites = values.definition_sites(var);
  if (sites.size() < 2 || sites.front() != var->getInit()) return std::nullopt;
  const auto* declaration = llvm::dyn_cast_or_null<clang::DeclStmt>(values.parents().getParent(var->getInit()));
  const auto* block = declaration ? llvm::dyn_cast_or_null<clang::CompoundStmt>(values.parents().getParent(declaration))
                                  : nullptr;
  if (block == nullptr) return std::nullopt;
  auto position_of = [&](const clang::Stmt* statement) { return position_in(block, statement); };
  // Each step either in a loop of its own, a statement of the declaring block after the
  // declaration, or taken once: a statement of a plain `{ }` that is such a statement (the
  // odd-even merge sort's first step, `{ …; stride >>= 1; }`, before `for (; stride > 0; …)`).
  struct Stepping {
    std::size_t position;
    StepSite site;  // site.loop is null for a step taken once, site.position its place in `once`
    Step step;
    const clang::CompoundStmt* once = nullptr;
    bool counted = false;  // a loop with a counter of its own, whose trip count the solver finds
  };
  std::vector<Stepping> steps;
  for (const clang::Stmt* definition : sites.drop_front()) {
    const auto step = constant_step(definition, values);
    if (!step) return std::nullopt;
    const auto* once = llvm::dyn_cast_or_null<clang::CompoundStmt>(values.parents().getParent(definition));
    if (once != nullptr && values.parents().getParent(once) == block) {
      const std::size_t position = position_of(once);
      if (position <= position_of(declaration) || jumps_inside(once)) return std::nullopt;
      for (const Stepping& other : steps)
        if (other.once == once) return std::nullopt;
      steps.push_back({position, StepSite{nullptr, position_in(once, definition)}, *step, once});
      continue;
    }
    const auto site = step_site(values, definition);
    if (!site || values.parents().getParent(site->loop) != block || jumps_inside(site->loop->getBody()))
      return std::nullopt;
    // A loop that counts with a counter of its own, or with this variable alone: no init, and
    // the variable stepped in its increment (`for (; stride > 0; stride >>= 1)`).
    const bool counted = loop_counter(values, site->loop) != nullptr;
    const bool counts_itself = site->loop->getInit() == nullptr && site->position == body_size(site->loop);
    if (!counted && !counts_itself) return std::nullopt;
    const std::size_t position = position_of(site->loop);
    if (position <= position_of(declaration)) return std::nullopt;
    for (const Stepping& other : steps)
      if (other.site.loop == site->loop) return std::nullopt;
    steps.push_back({position, *site, *step, nullptr, counted});
  }
  std::sort(steps.begin(), steps.end(), [](const Stepping& a, const Stepping& b) { return a.position < b.position; });
  const clang::Stmt* holder = statement_in(values, use, block);
  if (holder == nullptr) return std::nullopt;
  const std::size_t at = position_of(holder);
  SteppedValue value;
  value.start = var->getInit();
  for (const Stepping& taken : steps) {
    if (taken.once != nullptr) {
      bool before_use = taken.position < at;
      if (taken.position == at) {  // the use is in the same `{ }`: before or after the step
        const clang::Stmt* inner = statement_in(values, use, taken.once);
        if (inner == nullptr || position_in(taken.once, inner) == taken.site.position) return std::nullopt;
        before_use = position_in(taken.once, inner) > taken.site.position;
      }
      if (before_use) value.finished.push_back({nullptr, taken.step});
      continue;
    }
    if (taken.position < at) {
      if (!taken.counted) return std::nullopt;  // how many runs: unknown
      value.finished.push_back({taken.site.loop, taken.step});
    }
    if (taken.position != at) continue;
    const auto after = after_step(values, use, taken.site);
    if (!after) return std::nullopt;
    value.current = LoopRun{taken.site.loop, taken.step};
    value.after_step = *after;
  }
  return value;
}

}  // namespace carbide::analysis
