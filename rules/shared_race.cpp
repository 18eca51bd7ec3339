#include "shared_race.hpp"

#include "analysis/barrier_phases.hpp"
#include "analysis/index_bounds.hpp"
#include "analysis/local_index_range.hpp"
#include "analysis/shared_accesses.hpp"
#include "analysis/slot_solver.hpp"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <set>
#include <utility>

namespace carbide::rules {
namespace {

using analysis::Affine;
using analysis::LocalRange;
using analysis::SharedAccess;

// An access as written: the subscript or call, and the access inside a helper it reaches.
using AccessSite = std::pair<const clang::CallExpr*, const clang::CallExpr*>;

struct Located {
  const SharedAccess* access;
  std::optional<Affine> index;
  LocalRange range;
  std::optional<analysis::IndexRange> slots;  // every slot any thread may reach there
};

// Of the symbols that may differ between two threads at the two accesses
// (BarrierPhases::changing_between), those the two affine forms use.
std::set<std::string> iteration_variant_symbols(const std::set<std::string>& keys, const Located& a,
                                                const Located& b) {
  std::set<std::string> used;
  for (const Located* access : {&a, &b}) {
    for (const auto& [key, coefficient] : access->index->symbols) used.insert(key);
    for (const auto* bounds : {&access->range.upper, &access->range.lower})
      for (const Affine& bound : *bounds)
        for (const auto& [key, coefficient] : bound.symbols) used.insert(key);
  }
  std::set<std::string> variant;
  std::set_intersection(keys.begin(), keys.end(), used.begin(), used.end(),
                        std::inserter(variant, variant.begin()));
  return variant;
}

Affine renamed(Affine form, const std::set<std::string>& keys) {
  std::map<std::string, std::int64_t> symbols;
  for (const auto& [key, coefficient] : form.symbols)
    symbols[keys.count(key) ? key + "'" : key] = coefficient;
  form.symbols = std::move(symbols);
  return form;
}

LocalRange renamed(LocalRange range, const std::set<std::string>& keys) {
  for (Affine& bound : range.upper) bound = renamed(bound, keys);
  for (Affine& bound : range.lower) bound = renamed(bound, keys);
  return range;
}

// The width of a window holding the L of every thread in either range, from their tightest
// constant bounds.
std::optional<std::int64_t> window(const LocalRange& a, const LocalRange& b) {
  std::optional<std::int64_t> low, high;
  for (const LocalRange* range : {&a, &b}) {
    std::optional<std::int64_t> lowest, highest;  // this range's L ∈ [lowest, highest)
    for (const Affine& bound : range->lower)
      if (bound.is_constant() && (!lowest || bound.constant > *lowest)) lowest = bound.constant;
    for (const Affine& bound : range->upper)
      if (bound.is_constant() && (!highest || bound.constant < *highest)) highest = bound.constant;
    if (!lowest || !highest) return std::nullopt;
    low = low ? std::min(*low, *lowest) : *lowest;
    high = high ? std::max(*high, *highest) : *highest;
  }
  return *high - *low;
}

// One access in two iterations of a loop without a barrier, `tile[s·k + L]` with the loop's k:
// equal slots need L − L' = s·(k' − k), which no two threads can meet when all of them have L
// within a window narrower than |s| (k = k' then forces L = L').
// In a block of known shape the thread-dependent part may mix coordinates, `(ty + 8·k)·33 + tx`:
// it then differs between two threads by at most Σ |coefficient|·(extent − 1).
bool distinct_across_iterations(const Located& a, const Located& b, const std::set<std::string>& variant,
                                const analysis::BlockShape& shape) {
  if (variant.size() != 1 || !(*a.index == *b.index) || a.index->divisor != 1) return false;
  const auto term = a.index->symbols.find(*variant.begin());
  if (term == a.index->symbols.end()) return false;
  const std::int64_t stride = std::abs(term->second);
  if (std::abs(a.index->local) == 1 && a.index->x == 0 && a.index->y == 0) {
    const auto width = window(a.range, b.range);
    if (width && *width <= stride) return true;
  }
  const auto threads = shape.threads();
  if (!threads) return false;
  const std::int64_t spread = std::abs(a.index->local) * std::int64_t(*threads - 1) +
                              std::abs(a.index->x) * std::int64_t(shape.extent[0] - 1) +
                              std::abs(a.index->y) * std::int64_t(shape.extent[1] - 1);
  return spread < stride;
}

// The first tier: intervals and affine forms.
bool affinely_distinct(const analysis::ThreadValues& values, const Located& a, const Located& b,
                       const std::set<std::string>& changing) {
  // `tile[0]` by one thread and `tile[lid.get() + 1]` by all: no slot in common.
  if (a.slots && b.slots && (a.slots->high < b.slots->low || b.slots->high < a.slots->low))
    return true;
  if (!a.index || !b.index) return false;
  if (!analysis::distinct_for_different_threads(*a.index, a.range, *b.index, b.range, values.shape())) return false;
  const auto variant = iteration_variant_symbols(changing, a, b);
  return variant.empty() || distinct_across_iterations(a, b, variant, values.shape()) ||
         analysis::distinct_for_different_threads(*a.index, a.range, renamed(*b.index, variant),
                                                  renamed(b.range, variant), values.shape());
}

// The second tier, where the first cannot decide: the SMT solver.
bool provably_distinct(const analysis::ThreadValues& values, const analysis::BarrierPhases& phases,
                       const analysis::SlotSolver& solver, const Located& a, const Located& b) {
  // Dynamic shared memory is one run of bytes, whatever element type each handle views it as:
  // accesses of two sizes are apart only where their bytes are.
  const auto bytes = [&](const Located& at) -> __int128 {
    const clang::CallExpr* access = at.access->in_helper ? at.access->in_helper : at.access->expr;
    return values.context().getTypeSizeInChars(access->getType()).getQuantity();
  };
  if (a.access->tile == nullptr && bytes(a) != bytes(b))
    return a.slots && b.slots &&
           ((a.slots->high + 1) * bytes(a) <= b.slots->low * bytes(b) ||
            (b.slots->high + 1) * bytes(b) <= a.slots->low * bytes(a));
  const auto changing = phases.changing_between(*a.access, *b.access);
  if (affinely_distinct(values, a, b, changing)) return true;
  const std::vector<const clang::Stmt*> last_iteration_of[2] = {
      phases.loops_ended_between(*a.access, *b.access), phases.loops_ended_between(*b.access, *a.access)};
  return solver.proves_distinct(*a.access, *b.access, changing, last_iteration_of);
}

std::string describe(const clang::ASTContext& ast, const SharedAccess& access) {
  if (access.in_helper)
    return "'" + source_text(ast, access.in_helper) + "' (in the " +
           (analysis::followed_lambda(access.expr) ? "lambda" : "helper") + " called by '" +
           source_text(ast, access.expr) + "')";
  return "'" + source_text(ast, access.expr) + "'";
}

const clang::LambdaExpr* enclosing_lambda(const analysis::ThreadValues& values, const clang::Stmt* statement) {
  for (const clang::Stmt* parent = values.parents().getParent(statement); parent;
       parent = values.parents().getParent(parent))
    if (const auto* lambda = llvm::dyn_cast<clang::LambdaExpr>(parent)) return lambda;
  return nullptr;
}

// The phases are found one function at a time, with a lambda's body where it is written and a
// barrier-free helper's accesses to arrays passed in at each call. An array that arrives in a
// function with barriers, or an access inside a lambda, could meet the caller's accesses in a
// phase the checker never sees: it says so rather than pass them unchecked.
// Returns the accesses it speaks for (all those of each array or lambda it reports), which the
// pairs below leave alone: one finding per fault.
std::set<const clang::CallExpr*> report_unfollowed(const RuleContext& context, std::string_view rule,
                                                   const analysis::ThreadValues& values,
                                                   const std::vector<SharedAccess>& accesses) {
  std::set<const void*> reported;
  std::set<const clang::CallExpr*> spoken_for;
  for (const SharedAccess& access : accesses) {
    if (access.checked_in_callers) continue;
    std::string message;
    const void* key = nullptr;
    if (access.tile && llvm::isa<clang::ParmVarDecl>(access.tile)) {
      key = access.tile;
      message = "'" + access.tile->getNameAsString() +
                "' is a shared array passed in as a parameter of a function that reaches "
                "block::sync(): the checker follows arrays into helpers without barriers, as if "
                "inlined at each call, but cannot order this access against the caller's; move "
                "the barrier to the caller, or index the array in the function that declares it";
    } else if (const clang::LambdaExpr* lambda = enclosing_lambda(values, access.expr)) {
      key = lambda;
      message = describe(context.ast, access) +
                " is inside a lambda: the checker places a lambda's body where it is written, "
                "not where it is called, so it cannot order this access against the barriers; "
                "write the access in the enclosing function";
    }
    if (key == nullptr) continue;
    spoken_for.insert(access.expr);
    if (!reported.insert(key).second) continue;
    context.reporter.report(finding(rule, diag::Severity::Error, access.expr->getBeginLoc(),
                                    std::move(message), access.expr->getSourceRange()));
  }
  return spoken_for;
}

// The launch's integer parameters an index depends on, through the locals it reads (their
// definitions, as far as the function shows them): `pos + stride` with `stride = size / 2`
// names `size`. What the host guarantees of them (a power of two, a bound) may be what keeps the
// slots apart, and CARBIDE_REQUIRE is how the kernel says so.
std::set<const clang::ParmVarDecl*> launch_parameters_in(const analysis::ThreadValues& values,
                                                         const clang::Expr* index) {
  std::set<const clang::ParmVarDecl*> found;
  std::set<const clang::VarDecl*> seen;
  std::vector<const clang::Stmt*> work{index};
  while (!work.empty()) {
    const clang::Stmt* at = work.back();
    work.pop_back();
    if (at == nullptr) continue;
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(at)) {
      if (const auto* parameter = llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl());
          parameter && parameter->getType()->isIntegralOrEnumerationType() &&
          values.uniformity(ref) == analysis::Uniformity::Uniform)
        found.insert(parameter);
      else if (const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
               var && var->isLocalVarDecl() && seen.insert(var).second)
        for (const clang::Stmt* definition : values.definition_sites(var)) work.push_back(definition);
    }
    for (const clang::Stmt* child : at->children()) work.push_back(child);
  }
  return found;
}

// Every pair of accesses that may share a phase, in one block the function runs in.
void check_pairs(const RuleContext& context, std::string_view rule, const analysis::BarrierPhases& phases,
                 const analysis::ThreadValues& values, std::set<AccessSite>& reported,
                 const std::set<const clang::CallExpr*>& spoken_for) {
  const analysis::IndexBounds bounds(values);
  const analysis::SlotSolver solver(values, [&](const clang::FunctionDecl* helper) {
    return &context.device.thread_values(helper, values.shape());
  });
  std::vector<Located> accesses;
  for (const SharedAccess& access : phases.accesses) {
    if (access.checked_in_callers) continue;
    // A helper's index in its own terms has no affine form or range here: the solver decides.
    const bool indexed = access.index != nullptr && access.index_in == nullptr;
    accesses.push_back({&access, indexed ? analysis::index_form(values, access.index) : std::nullopt,
                        analysis::local_range_for(values, access.expr),
                        indexed ? bounds.subscript_range(access.index, access.expr) : std::nullopt});
  }
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    for (std::size_t j = i; j < accesses.size(); ++j) {
      const SharedAccess& a = *accesses[i].access;
      const SharedAccess& b = *accesses[j].access;
      if (a.tile != b.tile || !(a.writes || b.writes) || (a.atomic && b.atomic)) continue;
      if (i == j && !a.writes) continue;
      if (!phases.may_share_phase(a, b)) continue;
      if (provably_distinct(values, phases, solver, accesses[i], accesses[j])) continue;
      // Report the read when one side only reads, else the later write; once per access.
      const SharedAccess& at = !b.writes ? b : !a.writes ? a : b;
      const SharedAccess& other = &at == &a ? b : a;
      if (spoken_for.count(at.expr) || !reported.insert({at.expr, at.in_helper}).second) continue;
      const std::string tile = a.tile ? "'" + a.tile->getNameAsString() + "'" : "dynamic shared memory";
      std::string message;
      if (&a == &b && at.aliased)
        message = describe(context.ast, at) + " lets the address of a slot of " + tile +
                  ", or a mutable reference to it, out of the expression, and the checker counts that "
                  "as a write by every thread that runs it; read the element by value, or index it by "
                  "the local witness";
      else if (&a == &b && at.reads)
        message = describe(context.ast, at) + " may update the same slot of " + tile +
                  " from different threads at once; count with " +
                  (a.tile ? a.tile->getNameAsString() : "the array") +
                  ".fetch_add(i, v), an atomic add, or index it by the local witness";
      else if (&a == &b)
        message = describe(context.ast, at) + " may write the same slot of " + tile +
                  " from different threads; index it by the local witness, or let one thread "
                  "write (e.g. if (lid.get() == 0))";
      else if (!at.writes)
        message = describe(context.ast, at) + " reads a slot of " + tile +
                  " that another thread may write in this barrier phase; put "
                  "carbide::block::sync() between the write and the read";
      else
        message = describe(context.ast, at) + " and " + describe(context.ast, other) +
                  " may write the same slot of " + tile +
                  " from different threads in one barrier phase; make the slots provably "
                  "distinct or separate the writes with carbide::block::sync()";
      auto result = finding(rule, diag::Severity::Error, at.expr->getBeginLoc(), message,
                            at.expr->getSourceRange());
      if (&a != &b)
        result.notes.push_back({other.expr->getBeginLoc(),
                                std::string(other.writes ? "the write" : "the read") +
                                    " in the same phase"});
      for (const SharedAccess* through : {&at, &other})
        if (through->in_helper && (through == &at || &a != &b))
          result.notes.push_back({through->in_helper->getBeginLoc(),
                                  std::string("the access in the ") +
                                      (analysis::followed_lambda(through->expr) ? "lambda" : "helper") +
                                      ", checked as if inlined at the call"});
      result.notes.push_back({at.expr->getBeginLoc(),
                              "the checker could not prove the slots distinct for different "
                              "threads from the index and the conditions around the access"});
      std::set<const clang::ParmVarDecl*> parameters;
      for (const SharedAccess* access : {&at, &other})
        if (access->index != nullptr && access->index_in == nullptr)
          parameters.merge(launch_parameters_in(values, access->index));
      if (!parameters.empty()) {
        std::string names;
        for (const clang::ParmVarDecl* parameter : parameters)
          names += (names.empty() ? "'" : ", '") + parameter->getNameAsString() + "'";
        result.notes.push_back({at.expr->getBeginLoc(),
                                "the slots depend on " + names + ": if what the host guarantees of " +
                                    (parameters.size() == 1 ? "it" : "them") +
                                    " (a power of two, a bound) keeps them apart, state it in the kernel "
                                    "with CARBIDE_REQUIRE(...), which the checker relies on"});
      }
      if (auto note = calling_shape_note(context, values)) result.notes.push_back(std::move(*note));
      context.reporter.report(std::move(result));
    }
  }
}

}  // namespace

void SharedRaceRule::check(const RuleContext& context) {
  for (const clang::FunctionDecl* function : context.device.definitions()) {
    // A helper is checked in each block its callers run it in; each access reported once.
    std::set<AccessSite> reported;
    std::set<const clang::CallExpr*> spoken_for;
    bool first = true;
    for (const analysis::BlockShape& shape : context.device.calling_shapes(function)) {
      const analysis::BarrierPhases& phases = context.device.barrier_phases(function, shape);
      if (phases.accesses.empty()) break;
      const analysis::ThreadValues& values = context.device.thread_values(function, shape);
      if (std::exchange(first, false)) spoken_for = report_unfollowed(context, name(), values, phases.accesses);
      check_pairs(context, name(), phases, values, reported, spoken_for);
    }
  }
}

}  // namespace carbide::rules
