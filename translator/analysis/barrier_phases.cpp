#include "analysis/barrier_phases.hpp"

#include "analysis/index_bounds.hpp"
#include "analysis/shared_accesses.hpp"
#include "analysis/thread_values.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/ParentMap.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>

#include <algorithm>
#include <iterator>
#include <optional>

namespace carbide::analysis {
namespace {

using Phases = std::set<std::string>;

}  // namespace

bool contains_barrier(const clang::Stmt* statement) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    bool found = false;
    bool VisitCallExpr(clang::CallExpr* call) {
      found = found || model::vocabulary::is_barrier(call);
      return !found;
    }
  } finder;
  if (statement) finder.TraverseStmt(const_cast<clang::Stmt*>(statement));
  return finder.found;
}

namespace {

class Walker {
 public:
  explicit Walker(const ThreadValues& values)
      : values_(values), bounds_(values), parents_(const_cast<clang::Stmt*>(values.function()->getBody())) {}

  BarrierPhases run(const clang::Stmt* body) {
    walk(body, {"entry"});
    result_.loops = std::move(loop_ids_);
    return std::move(result_);
  }

 private:
  // Events of one statement without nested control flow, in source order.
  Phases scan(const clang::Stmt* statement, Phases phases) {
    if (statement == nullptr) return phases;
    struct Events : clang::RecursiveASTVisitor<Events> {
      std::vector<const clang::CallExpr*> found;
      bool VisitCallExpr(clang::CallExpr* call) {
        if (model::vocabulary::is_barrier(call) || is_tile_access(call) || inlinable_helper(call))
          found.push_back(call);
        return true;
      }
    } events;
    events.TraverseStmt(const_cast<clang::Stmt*>(statement));
    for (const clang::CallExpr* event : events.found) {
      if (model::vocabulary::is_barrier(event)) {
        if (std::find(result_.barriers.begin(), result_.barriers.end(), event) == result_.barriers.end())
          result_.barriers.push_back(event);
        phases = {"S" + std::to_string(barrier_id(event))};
      } else if (is_tile_access(event)) {
        record(event, nullptr, tile_handle(event), tile_index(event), nullptr, classify_use(event, parents_), phases);
      } else {
        for (const HelperAccess& access : helper_accesses(event))
          record(event, access.access, access.handle, access.index, access.index_in, access.use, phases);
      }
    }
    return phases;
  }

  // An access at `site`: the access itself, or a call to a helper that makes `in_helper`.
  void record(const clang::CallExpr* site, const clang::CallExpr* in_helper, const clang::Expr* handle,
              const clang::Expr* index, const clang::FunctionDecl* index_in, const AccessUse& use,
              const Phases& phases) {
    SharedAccess* found = nullptr;
    for (SharedAccess& access : result_.accesses)
      if (access.expr == site && access.in_helper == in_helper) found = &access;
    if (found == nullptr) {
      SharedAccess& access = result_.accesses.emplace_back();
      access.expr = site;
      access.in_helper = in_helper;
      access.index = index;
      access.index_in = index_in;
      access.reads = use.reads;
      access.writes = use.writes;
      access.atomic = use.atomic;
      const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(handle->IgnoreParenImpCasts());
      if (ref && !is_dynamic_handle(handle)) access.tile = ref->getDecl();
      // An array passed in to a helper its callers inline: they check the access.
      access.checked_in_callers = ref && llvm::isa<clang::ParmVarDecl>(ref->getDecl()) &&
                                  !reaches_barrier(values_.function());
      found = &access;
    }
    found->phases.insert(phases.begin(), phases.end());
  }

  Phases walk(const clang::Stmt* statement, Phases phases) {
    if (statement == nullptr) return phases;
    if (const auto* block = llvm::dyn_cast<clang::CompoundStmt>(statement)) {
      for (const clang::Stmt* child : block->body()) phases = walk(child, phases);
      return phases;
    }
    if (const auto* branch = llvm::dyn_cast<clang::IfStmt>(statement)) {
      phases = scan(branch->getCond(), scan(branch->getInit(), phases));
      const Phases after_then = walk(branch->getThen(), phases);
      const Phases after_else = walk(branch->getElse(), phases);
      const bool then_syncs = contains_barrier(branch->getThen());
      const bool else_syncs = contains_barrier(branch->getElse());
      if (then_syncs != else_syncs && values_.uniformity(branch->getCond()) != Uniformity::Uniform)
        return then_syncs ? after_then : after_else;
      Phases joined = after_then;
      joined.insert(after_else.begin(), after_else.end());
      return joined;
    }
    const clang::Stmt* body = nullptr;
    std::vector<const clang::Stmt*> head, tail;  // run before and after each iteration's body
    if (const auto* loop = llvm::dyn_cast<clang::ForStmt>(statement)) {
      phases = walk(loop->getInit(), phases);
      body = loop->getBody();
      head = {loop->getCond()};
      tail = {loop->getInc()};
    } else if (const auto* loop = llvm::dyn_cast<clang::WhileStmt>(statement)) {
      body = loop->getBody();
      head = {loop->getCond()};
    } else if (const auto* loop = llvm::dyn_cast<clang::DoStmt>(statement)) {
      body = loop->getBody();
      tail = {loop->getCond()};
    } else if (const auto* loop = llvm::dyn_cast<clang::CXXForRangeStmt>(statement)) {
      body = loop->getBody();
    } else {
      return scan(statement, phases);
    }
    return walk_loop(statement, body, head, tail, phases);
  }

  Phases iterate(const clang::Stmt* body, const std::vector<const clang::Stmt*>& head,
                 const std::vector<const clang::Stmt*>& tail, Phases phases) {
    for (const clang::Stmt* part : head) phases = scan(part, phases);
    phases = walk(body, phases);
    for (const clang::Stmt* part : tail) phases = scan(part, phases);
    return phases;
  }

  Phases walk_loop(const clang::Stmt* loop, const clang::Stmt* body,
                   const std::vector<const clang::Stmt*>& head,
                   const std::vector<const clang::Stmt*>& tail, const Phases& entry) {
    const std::string id = std::to_string(loop_ids_.size());
    loop_ids_.push_back(loop);
    const Phases first = iterate(body, head, tail, entry);
    if (!contains_barrier(body)) {
      // No barrier: every iteration runs in the entry phases, and so does what follows.
      Phases all = entry;
      all.insert(first.begin(), first.end());
      iterate(body, head, tail, all);
      return all;
    }
    // The phase after the body's last barrier continues into the next iteration's head...
    Phases next = entry;
    for (const std::string& phase : first) next.insert(phase + "^b" + id);
    const Phases last = iterate(body, head, tail, next);
    // ...or, when the loop ends, into the code after it; so does the phase before the loop
    // when its first test may fail.
    Phases after;
    for (const std::string& phase : last) after.insert(phase + "^x" + id);
    if (!runs_at_least_once(loop)) after.insert(entry.begin(), entry.end());
    return after;
  }

  // A do loop, or a for loop whose counter starts where its test passes for every value the
  // start and the bound can take (`for (j = k >> 1; j > 0; …)` inside `for (k = 2; …)`).
  bool runs_at_least_once(const clang::Stmt* loop) const {
    if (llvm::isa<clang::DoStmt>(loop)) return true;
    const auto* counted = llvm::dyn_cast<clang::ForStmt>(loop);
    const auto* test = counted ? llvm::dyn_cast_or_null<clang::BinaryOperator>(
                                     counted->getCond() ? counted->getCond()->IgnoreParenImpCasts() : nullptr)
                               : nullptr;
    if (test == nullptr || !test->isComparisonOp()) return false;
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(test->getLHS()->IgnoreParenImpCasts());
    const auto* counter = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    if (counter == nullptr || values_.counted_loop(counter) != counted || !counter->getInit()) return false;
    const auto start = bounds_.range_at(counter->getInit(), counter->getInit());
    const auto bound = bounds_.range_at(test->getRHS(), counter->getInit());
    if (!start || !bound) return false;
    switch (test->getOpcode()) {
      case clang::BO_LT: return start->high < bound->low;
      case clang::BO_LE: return start->high <= bound->low;
      case clang::BO_GT: return start->low > bound->high;
      case clang::BO_GE: return start->low >= bound->high;
      case clang::BO_NE: return start->high < bound->low || start->low > bound->high;
      default: return false;
    }
  }

  int barrier_id(const clang::CallExpr* barrier) {
    auto it = std::find(result_.barriers.begin(), result_.barriers.end(), barrier);
    return int(it - result_.barriers.begin());
  }

  const ThreadValues& values_;
  const IndexBounds bounds_;
  clang::ParentMap parents_;
  BarrierPhases result_;
  std::vector<const clang::Stmt*> loop_ids_;
};

}  // namespace

namespace {
// "S3^b1" extends "S3", and "S3" itself, but not "S30".
bool extends(const std::string& longer, const std::string& prefix) {
  return llvm::StringRef(longer).starts_with(prefix) &&
         (longer.size() == prefix.size() || longer[prefix.size()] == '^');
}
}  // namespace

bool may_share_phase(const SharedAccess& a, const SharedAccess& b) {
  for (const std::string& x : a.phases)
    for (const std::string& y : b.phases)
      if (extends(x, y) || extends(y, x)) return true;
  return false;
}

std::vector<const clang::Stmt*> loops_ended_between(const BarrierPhases& phases, const SharedAccess& inner,
                                                    const SharedAccess& outer) {
  std::optional<std::set<std::size_t>> common;  // the loops every shared phase runs past
  for (const std::string& x : inner.phases)
    for (const std::string& y : outer.phases) {
      if (!extends(y, x) && !extends(x, y)) continue;
      // Only "^x<loop>" segments may follow the inner access's phase.
      std::set<std::size_t> ended;
      if (y.size() <= x.size()) return {};
      llvm::StringRef rest = llvm::StringRef(y).drop_front(x.size());
      while (!rest.empty()) {
        if (!rest.consume_front("^x")) return {};
        std::size_t loop = 0;
        if (rest.consumeInteger(10, loop)) return {};
        ended.insert(loop);
      }
      if (!common) {
        common = ended;
      } else {
        std::set<std::size_t> both;
        std::set_intersection(common->begin(), common->end(), ended.begin(), ended.end(),
                              std::inserter(both, both.begin()));
        common = both;
      }
    }
  std::vector<const clang::Stmt*> loops;
  for (std::size_t loop : common.value_or(std::set<std::size_t>{}))
    if (loop < phases.loops.size()) loops.push_back(phases.loops[loop]);
  return loops;
}

BarrierPhases find_barrier_phases(const ThreadValues& values) {
  return Walker(values).run(values.function()->getBody());
}

}  // namespace carbide::analysis
