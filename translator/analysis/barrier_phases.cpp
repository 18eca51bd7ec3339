#include "analysis/barrier_phases.hpp"

#include "analysis/changed_variables.hpp"
#include "analysis/index_bounds.hpp"
#include "analysis/loop_steps.hpp"
#include "analysis/shared_accesses.hpp"
#include "analysis/thread_values.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/ParentMap.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>

#include <algorithm>

namespace carbide::analysis {

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

const clang::CallExpr* as_barrier(const clang::CFGElement& element) {
  const auto statement = element.getAs<clang::CFGStmt>();
  const auto* call = statement ? llvm::dyn_cast<clang::CallExpr>(statement->getStmt()) : nullptr;
  return call != nullptr && model::vocabulary::is_barrier(call) ? call : nullptr;
}

// The branches a barrier of the function is divergent under (as carbide-divergent-barrier finds
// them): a thread-dependent test, whose other way goes on. That rule reports the barrier; here
// the branch itself ends the phase, as the barrier would for the threads that reach it, so that
// the paths round the barrier do not draw the same fault again as races (one diagnostic per
// fault). The function is refused either way.
std::set<const clang::Stmt*> divergent_barrier_branches(const ThreadValues& values, const clang::CFG& cfg) {
  std::set<const clang::Stmt*> branches;
  for (const clang::CFGBlock* block : cfg)
    for (const clang::CFGElement& element : *block)
      if (const clang::CallExpr* barrier = as_barrier(element))
        for (const ControlCondition& condition : values.control().conditions_for(barrier))
          if (values.uniformity(condition.expr) > Uniformity::Uniform && !condition.other_way_stops)
            branches.insert(condition.branch);
  return branches;
}

// A `for` whose counter starts where its test passes for every value the start and the bound
// can take (`for (j = k >> 1; j > 0; …)` inside `for (k = 2; …)`): its first test never fails.
bool runs_at_least_once(const ThreadValues& values, const IndexBounds& bounds, const clang::ForStmt* loop) {
  const auto* test = llvm::dyn_cast_or_null<clang::BinaryOperator>(
      loop->getCond() ? loop->getCond()->IgnoreParenImpCasts() : nullptr);
  if (test == nullptr || !test->isComparisonOp()) return false;
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(test->getLHS()->IgnoreParenImpCasts());
  const auto* counter = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (counter == nullptr || values.counted_loop(counter) != loop || !counter->getInit()) return false;
  const auto start = bounds.range_at(counter->getInit(), counter->getInit());
  const auto bound = bounds.range_at(test->getRHS(), counter->getInit());
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

const clang::FunctionDecl* barrier_helper(const clang::CallExpr* call) {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  const clang::FunctionDecl* definition = callee ? callee->getDefinition() : nullptr;
  if (definition == nullptr || definition->getBody() == nullptr || model::vocabulary::is_carbide(definition))
    return nullptr;
  return reaches_barrier(definition) ? definition : nullptr;
}

// The shared accesses a helper with barriers makes before its first barrier or after its last
// one (on some path), helpers it calls there followed; each index in its own function's terms.
std::vector<HelperAccess> boundary_accesses(const clang::FunctionDecl* helper, int depth) {
  std::vector<HelperAccess> found;
  if (depth > kMaxHelperDepth) return found;
  clang::CFG::BuildOptions options;
  options.setAllAlwaysAdd();
  const std::unique_ptr<clang::CFG> cfg =
      clang::CFG::buildCFG(helper, helper->getBody(), &helper->getASTContext(), options);
  if (cfg == nullptr) return found;
  const BarrierFlow flow(
      *cfg, [](const clang::CFGBlock&, const clang::CFGElement* element) { return element && as_barrier(*element); },
      [](const clang::Stmt*) { return false; });
  const llvm::BitVector from_entry = flow.reachable_from(flow.first_of(&cfg->getEntry()));
  const llvm::BitVector to_exit = flow.reaching(flow.first_of(&cfg->getExit()));
  const clang::ParentMap parents(helper->getBody());
  // An array passed in to the helper is refused where the helper indexes it (carbide-shared-race
  // cannot order it against the caller's accesses): only its own arrays and dynamic memory here.
  const auto passed_in = [](const clang::Expr* handle) {
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(handle->IgnoreParenImpCasts());
    return ref && llvm::isa<clang::ParmVarDecl>(ref->getDecl()) && !is_dynamic_handle(handle);
  };
  for (unsigned node = 0; node < flow.nodes().size(); ++node) {
    const auto* call = llvm::dyn_cast_or_null<clang::CallExpr>(flow.nodes()[node].statement);
    const unsigned phase = (from_entry.test(node) ? kFirstPhase : 0) | (to_exit.test(node) ? kLastPhase : 0);
    if (call == nullptr || phase == 0) continue;
    if (is_tile_access(call)) {
      if (!passed_in(tile_handle(call)))
        found.push_back({call, tile_handle(call), tile_index(call), helper, classify_use(call, parents), phase});
    } else if (inlinable_helper(call)) {
      for (const HelperAccess& access : helper_accesses(call))
        if (!passed_in(access.handle))
          found.push_back({access.access, access.handle, access.index, access.index_in ? access.index_in : helper,
                           access.use, phase});
    } else if (const clang::FunctionDecl* inner = barrier_helper(call)) {
      // The inner helper's first phase is this one's where the call is in this one's first.
      for (HelperAccess access : boundary_accesses(inner, depth + 1))
        if ((access.boundary &= phase) != 0) found.push_back(access);
    }
  }
  return found;
}

// The accesses a function makes, each at the CFG nodes of the call that makes it.
class AccessCollector {
 public:
  AccessCollector(const ThreadValues& values, std::vector<SharedAccess>& accesses)
      : values_(values), accesses_(accesses) {}

  void collect(const clang::CallExpr* call, const std::vector<unsigned>& nodes) {
    if (is_tile_access(call)) {
      record(call, nullptr, tile_handle(call), tile_index(call), nullptr, classify_use(call, values_.parents()), nodes);
    } else if (inlinable_helper(call)) {
      for (const HelperAccess& access : helper_accesses(call))
        record(call, access.access, access.handle, access.index, access.index_in, access.use, nodes);
    } else if (const clang::FunctionDecl* helper = barrier_helper(call)) {
      // A helper with barriers: the accesses of its first and last phases run in this
      // function's phase at the call, the last ones of one call together with the first ones of
      // the next call made without a barrier between (a loop around the call among them).
      for (const HelperAccess& access : boundary_accesses(helper, 0))
        record(call, access.access, access.handle, access.index, access.index_in, access.use, nodes)
            .boundary = access.boundary;
    }
  }

  // A lambda's body is not in the function's CFG. One checked at its calls is placed there (as a
  // helper is); any other is placed where it is written (carbide-shared-race refuses its
  // accesses, since it cannot know where the lambda is called).
  void collect_in_lambda(const clang::LambdaExpr* lambda, const std::vector<unsigned>& nodes) {
    if (checked_at_calls(lambda, lambda_holder(lambda, values_.parents()))) return;
    struct Calls : clang::RecursiveASTVisitor<Calls> {
      std::vector<const clang::CallExpr*> found;
      bool VisitCallExpr(clang::CallExpr* call) {
        found.push_back(call);
        return true;
      }
    } calls;
    calls.TraverseStmt(lambda->getBody());
    for (const clang::CallExpr* call : calls.found) collect(call, nodes);
  }

 private:
  SharedAccess& record(const clang::CallExpr* site, const clang::CallExpr* in_helper, const clang::Expr* handle,
                       const clang::Expr* index, const clang::FunctionDecl* index_in, const AccessUse& use,
                       const std::vector<unsigned>& nodes) {
    for (SharedAccess& access : accesses_)
      if (access.expr == site && access.in_helper == in_helper) return access;
    SharedAccess& access = accesses_.emplace_back();
    access.expr = site;
    access.in_helper = in_helper;
    // A subscript past an array member of the element reaches other elements: no index.
    access.index = use.leaves_element ? nullptr : index;
    access.index_in = index_in;
    access.reads = use.reads;
    access.writes = use.writes;
    access.atomic = use.atomic;
    access.aliased = use.aliased;
    access.nodes = nodes;
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(handle->IgnoreParenImpCasts());
    if (ref && !is_dynamic_handle(handle)) access.tile = ref->getDecl();
    // An array passed in to a helper its callers inline: they check the access.
    access.checked_in_callers = ref && llvm::isa<clang::ParmVarDecl>(ref->getDecl()) &&
                                !reaches_barrier(values_.function());
    return access;
  }

  const ThreadValues& values_;
  std::vector<SharedAccess>& accesses_;
};

// The symbols a statement changes: what it assigns, steps, declares or lets change through an
// alias; on a barrier-free cycle, also every value it computes.
void add_changed_symbols(const clang::ASTContext& context, const clang::Stmt* statement, bool repeated,
                         std::set<std::string>& keys) {
  const ChangedVariables changed = changed_variables(statement);
  for (const auto* set : {&changed.assigned, &changed.aliased})
    for (const clang::VarDecl* variable : *set) keys.insert(symbol_key(variable));
  if (const auto* declaration = llvm::dyn_cast<clang::DeclStmt>(statement))
    for (const clang::Decl* decl : declaration->decls())
      if (const auto* variable = llvm::dyn_cast<clang::VarDecl>(decl)) keys.insert(symbol_key(variable));
  if (!repeated) return;
  struct Computed : clang::RecursiveASTVisitor<Computed> {
    std::set<std::string>* keys;
    const clang::ASTContext* context;
    bool VisitVarDecl(clang::VarDecl* variable) {
      keys->insert(symbol_key(variable));
      return true;
    }
    bool VisitExpr(clang::Expr* expr) {
      keys->insert(std::to_string(expr->getID(*context)));  // an expression's own symbol
      return true;
    }
  } computed;
  computed.keys = &keys;
  computed.context = &context;
  computed.TraverseStmt(const_cast<clang::Stmt*>(statement));
}

}  // namespace

BarrierPhases find_barrier_phases(const ThreadValues& values) {
  BarrierPhases phases;
  phases.values_ = &values;
  AccessCollector collector(values, phases.accesses);
  const clang::CFG* cfg = values.control().cfg();
  if (cfg == nullptr) {
    // No CFG: every access is unplaced, and so may run at once with any other.
    struct Calls : clang::RecursiveASTVisitor<Calls> {
      AccessCollector* collector;
      bool VisitCallExpr(clang::CallExpr* call) {
        collector->collect(call, {});
        return true;
      }
    } calls;
    calls.collector = &collector;
    calls.TraverseStmt(values.function()->getBody());
    return phases;
  }
  const IndexBounds bounds(values);
  const std::set<const clang::Stmt*> divergent = divergent_barrier_branches(values, *cfg);
  const auto is_barrier = [&](const clang::CFGBlock& block, const clang::CFGElement* element) {
    return element ? as_barrier(*element) != nullptr : divergent.count(block.getTerminatorStmt()) != 0;
  };
  auto flow = std::make_shared<BarrierFlow>(*cfg, is_barrier, [&](const clang::Stmt* loop) {
    return runs_at_least_once(values, bounds, llvm::cast<clang::ForStmt>(loop));
  });
  for (unsigned node = 0; node < flow->nodes().size(); ++node) {
    const BarrierFlow::Node& at = flow->nodes()[node];
    if (at.statement == nullptr || at.first_entry_copy) continue;
    const std::vector<unsigned> nodes = flow->nodes_of(at.statement);
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(at.statement)) collector.collect(call, nodes);
    if (const auto* lambda = llvm::dyn_cast<clang::LambdaExpr>(at.statement)) collector.collect_in_lambda(lambda, nodes);
  }
  // In source order, as diagnostics are read.
  const clang::SourceManager& sources = values.context().getSourceManager();
  std::stable_sort(phases.accesses.begin(), phases.accesses.end(), [&](const SharedAccess& a, const SharedAccess& b) {
    return a.expr != b.expr && sources.isBeforeInTranslationUnit(a.expr->getBeginLoc(), b.expr->getBeginLoc());
  });
  for (const SharedAccess& access : phases.accesses) {
    llvm::BitVector after(unsigned(flow->nodes().size())), before(unsigned(flow->nodes().size()));
    for (unsigned node : access.nodes) {
      after |= flow->reachable_from(node);
      before |= flow->reaching(node);
    }
    phases.after_.push_back(std::move(after));
    phases.before_.push_back(std::move(before));
  }
  // Branches that may send threads of one block different ways (a branch without a test, like
  // an `asm goto`, counts as one).
  for (const clang::CFGBlock* block : *cfg) {
    std::set<const clang::CFGBlock*> ways;
    for (const clang::CFGBlock::AdjacentBlock& successor : block->succs())
      if (const clang::CFGBlock* way = successor.getReachableBlock()) ways.insert(way);
    if (ways.size() < 2) continue;
    const auto* test = llvm::dyn_cast_or_null<clang::Expr>(block->getTerminatorCondition(false));
    if (test != nullptr && values.uniformity(test) == Uniformity::Uniform) continue;
    const unsigned terminator = flow->terminator_of(block);
    if (flow->nodes()[terminator].barrier) continue;
    phases.divergent_branches_.push_back(terminator);
    phases.after_branch_.push_back(flow->reachable_from(terminator));
  }
  phases.flow_ = std::move(flow);
  return phases;
}

bool BarrierPhases::meet_at(const llvm::BitVector& nodes, const SharedAccess& access) const {
  for (unsigned node : access.nodes)
    if (nodes.test(node)) return true;
  return false;
}

bool BarrierPhases::may_share_phase(const SharedAccess& a, const SharedAccess& b) const {
  if (flow_ == nullptr || a.nodes.empty() || b.nodes.empty()) return true;
  // Two accesses of one call of a helper with barriers (or one such access with itself): the
  // helper's own check pairs them within a call, in each block it runs in, so only another call
  // of it, reached by a barrier-free cycle, brings them together here.
  const bool one_call = a.boundary != 0 && b.boundary != 0 && a.expr == b.expr;
  if (&a == &b && !one_call) return true;
  if (meet_at(after_[position(a)], b) || meet_at(after_[position(b)], a)) return true;
  if (one_call) return false;
  for (const llvm::BitVector& after : after_branch_)
    if (meet_at(after, a) && meet_at(after, b)) return true;
  return false;
}

// Every edge out of the loop leaves from its header, and every pass through the header meets a
// barrier before it comes back.
bool BarrierPhases::leaves_only_by_its_test(const clang::CFGBlock* header) const {
  const std::vector<bool>& body = flow_->natural_loops().at(header);
  const unsigned terminator = flow_->terminator_of(header);
  if (flow_->reachable_from(terminator).test(terminator)) return false;
  for (const BarrierFlow::Node& node : flow_->nodes()) {
    if (node.element != nullptr || !body[node.block->getBlockID()] || node.block == header) continue;
    for (unsigned successor : node.successors)
      if (!body[flow_->nodes()[successor].block->getBlockID()]) return false;
  }
  return true;
}

std::vector<const clang::Stmt*> BarrierPhases::loops_ended_between(const SharedAccess& inner,
                                                                   const SharedAccess& outer) const {
  std::vector<const clang::Stmt*> loops;
  if (flow_ == nullptr || inner.nodes.empty() || outer.nodes.empty()) return loops;
  // Where the thread at `outer` could come to `inner` without passing the loop's end (from
  // `outer` itself, or from a thread-dependent branch outside the loop), `inner` may be in any
  // iteration.
  if (meet_at(after_[position(outer)], inner)) return loops;
  for (const auto& [header, body] : flow_->natural_loops()) {
    const auto* loop = llvm::dyn_cast_or_null<clang::ForStmt>(header->getTerminatorStmt());
    if (loop == nullptr || loop->getCond() == nullptr ||
        values_->uniformity(loop->getCond()) != Uniformity::Uniform)
      continue;
    const auto inside = [&](unsigned node) { return flow_->in_loop(header, node); };
    if (!std::all_of(inner.nodes.begin(), inner.nodes.end(), inside) ||
        std::any_of(outer.nodes.begin(), outer.nodes.end(), inside) || !leaves_only_by_its_test(header))
      continue;
    bool entered_from_outside = false;
    for (std::size_t branch = 0; branch < divergent_branches_.size(); ++branch)
      entered_from_outside = entered_from_outside ||
                             (!inside(divergent_branches_[branch]) && meet_at(after_branch_[branch], inner) &&
                              meet_at(after_branch_[branch], outer));
    if (!entered_from_outside) loops.push_back(loop);
  }
  return loops;
}

std::set<std::string> BarrierPhases::changing_between(const SharedAccess& a, const SharedAccess& b) const {
  std::set<std::string> keys;
  if (flow_ == nullptr || a.nodes.empty() || b.nodes.empty()) {
    // Without the CFG's paths: whatever the function changes or computes.
    add_changed_symbols(values_->context(), values_->function()->getBody(), true, keys);
    return keys;
  }
  const llvm::BitVector &after_a = after_[position(a)], &after_b = after_[position(b)];
  const llvm::BitVector &before_a = before_[position(a)], &before_b = before_[position(b)];
  llvm::BitVector between(unsigned(flow_->nodes().size()));
  if (meet_at(after_a, b)) between |= llvm::BitVector(after_a) &= before_b;
  if (meet_at(after_b, a)) between |= llvm::BitVector(after_b) &= before_a;
  for (const llvm::BitVector& after : after_branch_)
    if (meet_at(after, a) && meet_at(after, b)) between |= (llvm::BitVector(before_a) |= before_b) &= after;
  for (unsigned node : between.set_bits())
    if (const clang::Stmt* statement = flow_->nodes()[node].statement)
      add_changed_symbols(values_->context(), statement, flow_->on_barrier_free_cycle(node), keys);
  // The counter of a loop one access ends in steps on the way to the other, but the solver
  // holds that access to the loop's last iteration, counter included; a counter the loop
  // declares is not seen past it.
  for (const auto& [inner, outer] : {std::pair{&a, &b}, std::pair{&b, &a}})
    for (const clang::Stmt* ended : loops_ended_between(*inner, *outer)) {
      const auto* loop = llvm::cast<clang::ForStmt>(ended);
      const clang::VarDecl* counter = loop_counter(*values_, loop);
      const auto* init = llvm::dyn_cast_or_null<clang::DeclStmt>(loop->getInit());
      if (counter && init && llvm::is_contained(init->decls(), counter)) keys.erase(symbol_key(counter));
    }
  return keys;
}

}  // namespace carbide::analysis
