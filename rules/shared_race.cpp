#include "shared_race.hpp"

#include "analysis/barrier_phases.hpp"
#include "analysis/local_index_range.hpp"

#include <set>

namespace carbide::rules {
namespace {

using analysis::Affine;
using analysis::LocalRange;
using analysis::SharedAccess;

struct Located {
  const SharedAccess* access;
  std::optional<Affine> index;
  LocalRange range;
};

std::string describe(const clang::ASTContext& ast, const SharedAccess& access) {
  return "'" + source_text(ast, access.expr) + "'";
}

}  // namespace

void SharedRaceRule::check(const RuleContext& context) {
  for (const clang::FunctionDecl* function : context.device.definitions()) {
    const analysis::BarrierPhases phases = analysis::find_barrier_phases(function);
    if (phases.accesses.empty()) continue;
    const analysis::ThreadValues values(context.ast, function, context.device.block_shape(function));
    std::vector<Located> accesses;
    for (const SharedAccess& access : phases.accesses)
      accesses.push_back({&access, analysis::index_form(values, access.index),
                          analysis::local_range_for(values, access.expr)});
    std::set<const SharedAccess*> reported;
    for (std::size_t i = 0; i < accesses.size(); ++i) {
      for (std::size_t j = i; j < accesses.size(); ++j) {
        const SharedAccess& a = *accesses[i].access;
        const SharedAccess& b = *accesses[j].access;
        if (a.tile != b.tile || a.phase != b.phase || !(a.writes || b.writes)) continue;
        if (i == j && !a.writes) continue;
        if (accesses[i].index && accesses[j].index &&
            analysis::distinct_for_different_threads(*accesses[i].index, accesses[i].range,
                                                     *accesses[j].index, accesses[j].range))
          continue;
        // Report the read when one side only reads, else the later write; once per access.
        const SharedAccess& at = !b.writes ? b : !a.writes ? a : b;
        const SharedAccess& other = &at == &a ? b : a;
        if (!reported.insert(&at).second) continue;
        const std::string tile = a.tile ? a.tile->getNameAsString() : "the tile";
        std::string message;
        if (&a == &b)
          message = describe(context.ast, at) + " may write the same slot of '" + tile +
                    "' from different threads; index it by the local witness, or let one thread "
                    "write (e.g. if (lid.get() == 0))";
        else if (!at.writes)
          message = describe(context.ast, at) + " reads a slot of '" + tile +
                    "' that another thread may write in this barrier phase; put "
                    "carbide::block::sync() between the write and the read";
        else
          message = describe(context.ast, at) + " and " + describe(context.ast, other) +
                    " may write the same slot of '" + tile +
                    "' from different threads in one barrier phase; make the slots provably "
                    "distinct or separate the writes with carbide::block::sync()";
        auto result = finding(name(), diag::Severity::Error, at.expr->getBeginLoc(), message,
                              at.expr->getSourceRange());
        if (&a != &b)
          result.notes.push_back({other.expr->getBeginLoc(),
                                  std::string(other.writes ? "the write" : "the read") +
                                      " in the same phase"});
        result.notes.push_back({at.expr->getBeginLoc(),
                                "the checker could not prove the slots distinct for different "
                                "threads from the index and the conditions around the access"});
        context.reporter.report(std::move(result));
      }
    }
  }
}

}  // namespace carbide::rules
