#include "launch_contract.hpp"

#include "model/vocabulary.hpp"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <set>
#include <utility>

namespace carbide::rules {
namespace {

// The largest block any CUDA device runs.
constexpr std::uint64_t kMaxThreadsPerBlock = 1024;

// Every call that makes a global index witness, in the kernel's body and in every function of
// the program it reaches: each is held to the contract's domain, wherever it is made.
class WitnessFinder : public clang::RecursiveASTVisitor<WitnessFinder> {
 public:
  explicit WitnessFinder(const clang::SourceManager& sources) : sources_(sources) {}
  bool VisitCallExpr(clang::CallExpr* call) {
    const auto witness = model::vocabulary::witness_made_by(call);
    // thread::grid_stride deals out 1-D global indexes (x only), as index_1d() does, and
    // warp_index_1d() numbers warps by blockIdx.x.
    if (witness == model::vocabulary::Witness::Global1D || witness == model::vocabulary::Witness::Warp ||
        model::vocabulary::is_grid_stride(call))
      found.push_back({call, 1, helper_});
    else if (witness == model::vocabulary::Witness::Global2D) found.push_back({call, 2, helper_});
    else follow(call->getDirectCallee());
    return true;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr* construct) {
    follow(construct->getConstructor());
    return true;
  }
  struct Made {
    const clang::CallExpr* call;
    int domain;
    const clang::FunctionDecl* helper;  // the function of the program that makes it; null: the kernel
  };
  std::vector<Made> found;

 private:
  void follow(const clang::FunctionDecl* callee) {
    const clang::FunctionDecl* definition = nullptr;
    if (callee == nullptr || model::vocabulary::is_carbide(callee) || !callee->hasBody(definition) ||
        sources_.isInSystemHeader(definition->getLocation()) || !visited_.insert(definition).second)
      return;
    const clang::FunctionDecl* caller = std::exchange(helper_, definition);
    TraverseStmt(definition->getBody());
    helper_ = caller;
  }
  const clang::SourceManager& sources_;
  const clang::FunctionDecl* helper_ = nullptr;
  std::set<const clang::FunctionDecl*> visited_;
};

// The calls that make halo witnesses (thread::index_2d_halo<R>()), with their radius R.
class HaloFinder : public clang::RecursiveASTVisitor<HaloFinder> {
 public:
  bool VisitCallExpr(clang::CallExpr* call) {
    const auto witness = model::vocabulary::witness_made_by(call);
    if (!witness) return true;
    if (const auto radius = model::vocabulary::halo_radius(call->getType()->getAsCXXRecordDecl()))
      found.push_back({call, *radius, *witness == model::vocabulary::Witness::Global2D ? 2 : 1});
    return true;
  }
  struct Halo {
    const clang::CallExpr* call;
    std::uint64_t radius;
    int axes;  // x, and y for a 2-D halo
  };
  std::vector<Halo> found;
};

}  // namespace

void LaunchContractRule::check(const RuleContext& context) {
  for (const model::Module& module : context.program.modules) {
    for (const model::Kernel& kernel : module.kernels) {
      if (!kernel.contract) continue;
      const model::ContractAnnotation& contract = *kernel.contract;
      auto report = [&](std::string message) {
        return finding(name(), diag::Severity::Error, contract.location,
                       "launch contract of '" + kernel.qualified_name + "': " + message);
      };
      if (kernel.is_tile) {
        context.reporter.report(report("a tile kernel's threads are the translator's choice, and so is its "
                                       "contract; remove CARBIDE_LAUNCH_CONTRACT"));
        continue;
      }
      if (contract.error) {
        context.reporter.report(report(contract.error->message + "; " + contract.error->fix));
        continue;
      }
      const contract::Contract& parsed = *contract.parsed;
      const std::uint64_t threads = parsed.block[0] * parsed.block[1] * parsed.block[2];
      if (threads > kMaxThreadsPerBlock) {
        context.reporter.report(report("block has " + std::to_string(threads) +
                                       " threads; no CUDA device runs more than 1024 per block"));
      } else if (kernel.bounds && kernel.bounds->max_threads != 0 &&
                 threads > kernel.bounds->max_threads) {
        auto result = report("block has " + std::to_string(threads) +
                             " threads, more than the kernel's CARBIDE_LAUNCH_BOUNDS(" +
                             std::to_string(kernel.bounds->max_threads) +
                             "); raise the bounds or shrink the block");
        result.notes.push_back({kernel.bounds->location, "launch bounds declared here"});
        context.reporter.report(std::move(result));
      }
      // Every witness the kernel makes, in its body or a helper, any number of them.
      WitnessFinder witnesses(context.ast.getSourceManager());
      witnesses.TraverseStmt(kernel.decl->getBody());
      // All at the contract: in the order of their messages, as clang-tidy orders findings at
      // one place (the plugin reports what check does, line for line).
      std::vector<diag::Finding> mismatches;
      for (const WitnessFinder::Made& made : witnesses.found) {
        if (made.domain == parsed.domain) continue;
        // As written: index_2d_transposed() is a 2-D witness too.
        const std::string used = made.call->getDirectCallee()->getNameAsString() + "()";
        const std::string who = made.helper ? "'" + made.helper->getQualifiedNameAsString() + "', which the kernel calls,"
                                            : "the kernel";
        auto result = report("domain = " + std::to_string(parsed.domain) + " but " + who + " uses " +
                             used + "; write domain = " + std::to_string(made.domain) +
                             " or use the matching witness");
        result.notes.push_back({made.call->getBeginLoc(), used + " used here"});
        mismatches.push_back(std::move(result));
      }
      std::stable_sort(mismatches.begin(), mismatches.end(),
                       [](const diag::Finding& a, const diag::Finding& b) { return a.message < b.message; });
      for (diag::Finding& mismatch : mismatches) context.reporter.report(std::move(mismatch));
      // A halo as wide as the block leaves no thread inside it: the kernel would write nothing.
      HaloFinder halos;
      halos.TraverseStmt(kernel.decl->getBody());
      for (const HaloFinder::Halo& halo : halos.found) {
        for (int axis = 0; axis < halo.axes; ++axis) {
          if (2 * halo.radius < parsed.block[axis]) continue;
          const std::string called = halo.call->getDirectCallee()->getNameAsString() + "<" +
                                     std::to_string(halo.radius) + ">()";
          auto result = report("a halo of " + std::to_string(halo.radius) + " on each side takes all " +
                               std::to_string(parsed.block[axis]) + " threads along " + (axis == 0 ? "x" : "y") +
                               ", so " + called + " leaves no inner thread and the kernel writes nothing; "
                               "widen the block beyond " + std::to_string(2 * halo.radius) + " or narrow the halo");
          result.notes.push_back({halo.call->getBeginLoc(), called + " used here"});
          context.reporter.report(std::move(result));
          break;
        }
      }
      if (!parsed.covers.empty() && !model::covered_view(kernel))
        context.reporter.report(report("'covers = " + parsed.covers +
                                       "' must name a span, disjoint_span or atomic_span parameter of the "
                                       "kernel, with domain = 1: the launch then checks that grid.x × block.x "
                                       "equals its size()"));
    }
  }
}

}  // namespace carbide::rules
