#include "codegen/device_codegen.hpp"

#include "codegen/checked_arrays.hpp"
#include "codegen/copied_declarations.hpp"
#include "codegen/copied_macros.hpp"
#include "codegen/generated_text.hpp"
#include "codegen/shared_sites.hpp"
#include "model/annotations.hpp"
#include "model/vocabulary.hpp"
#include "support/file_names.hpp"
#include "tile/emitter.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/Support/Path.h>

#include <set>

namespace carbide::codegen {
namespace {

// Marks device functions for nvcc. A constexpr function stays usable on the host as well, since
// nvcc may evaluate it in a constant expression.
void mark_device_functions(const model::Program& program, clang::Rewriter& rewriter) {
  const clang::SourceManager& sources = rewriter.getSourceMgr();
  for (const clang::FunctionDecl* function : program.device.functions) {
    const char* marker = model::is_kernel(function) ? "__device__ __forceinline__ "
                         : function->isConstexpr()  ? "__host__ __device__ "
                                                    : "__device__ ";
    rewriter.InsertTextBefore(sources.getExpansionLoc(function->getBeginLoc()), marker);
  }
}

// A contract's block is compiled in as its thread count (.maxntid); the nvcc stage then makes
// that the exact (x, y, z) (.reqntid), see nvcc/ptx_directives.hpp.
std::string launch_attributes(const model::Kernel& kernel) {
  const auto& bounds = kernel.bounds;
  std::uint64_t threads = bounds ? bounds->max_threads : 0;
  if (kernel.has_valid_contract()) {
    const auto& block = kernel.contract->parsed->block;
    threads = block[0] * block[1] * block[2];
  }
  if (threads == 0) return "";
  return "__launch_bounds__(" + std::to_string(threads) +
         (bounds && bounds->min_blocks > 0 ? ", " + std::to_string(bounds->min_blocks) : "") + ") ";
}

// Whether a kernel's own body loops with carbide::thread::grid_stride.
class GridStrideFinder : public clang::RecursiveASTVisitor<GridStrideFinder> {
 public:
  bool found = false;
  bool VisitCallExpr(clang::CallExpr* call) {
    found = found || model::vocabulary::is_grid_stride(call);
    return !found;
  }
};

bool loops_grid_stride(const model::Kernel& kernel) {
  GridStrideFinder finder;
  if (kernel.decl->getBody()) finder.TraverseStmt(kernel.decl->getBody());
  return finder.found;
}

// The contract's block, told to the compiler. A kernel whose launch bounds ask for several
// blocks per SM has a register budget someone tuned: there constant block dimensions let the
// compiler keep more values live and spill (samples/sgemm: 40 bytes, 0.91 of its twin, where
// without them it ran at 0.99), so it is told only the thread indexes' bounds. A grid-stride
// kernel is told nothing: it reads the block's size once, for its stride, and with the size
// constant ptxas scheduled samples/histogram's loop test after its atomics, 0.982 of the twin
// against 0.999 without (bench/results/2026-12-04-h200-session12.md).
std::string block_assumption(const model::Kernel& kernel) {
  if (loops_grid_stride(kernel)) return "";
  const auto& block = kernel.contract->parsed->block;
  const bool register_budget = kernel.bounds && kernel.bounds->min_blocks > 0;
  return std::string("  ::carbide::detail::") + (register_budget ? "assume_thread_indexes<" : "assume_block_shape<") +
         std::to_string(block[0]) + ", " + std::to_string(block[1]) + ", " + std::to_string(block[2]) + ">();\n";
}

// A kernel with `index_bits = 32` gets its views with extents the compiler knows to be 32-bit
// (the launch checked that they are), so index arithmetic on them narrows to 32 bits.
std::string entry_point(const model::Module& module, const model::Kernel& kernel) {
  const bool narrow = kernel.has_valid_contract() && kernel.contract->parsed->index_bits == 32;
  std::string params, args;
  for (std::size_t i = 0; i < kernel.params.size(); ++i) {
    const model::Parameter& param = kernel.params[i];
    const std::string name = param.name.empty() ? "arg" + std::to_string(i) : param.name;
    params += (i ? ", " : "") + param.device_type + " " + name;
    args += (i ? ", " : "") +
            (narrow && model::is_view(param.kind) ? "::carbide::detail::narrow_extents(" + name + ")" : name);
  }
  std::string text = "// " + kernel.qualified_name;
  if (kernel.has_valid_contract()) text += ": launch contract `" + kernel.contract->text + "`";
  text += "\nextern \"C\" __global__ void " + launch_attributes(kernel) + kernel.entry_name + "(" +
          params + ") {\n";
  if (kernel.has_valid_contract()) text += block_assumption(kernel);
  text += "  ::" + module.qualified_name + "::" + kernel.name + kernel.template_arguments + "(" + args + ");\n}\n";
  return text;
}

// Before the proven indexes: an in_range(...) that starts where a checked array does encloses it.
void mark_checked_arrays(const std::vector<const clang::ArraySubscriptExpr*>& subscripts,
                         const clang::ASTContext& context, clang::Rewriter& rewriter) {
  for (const TextWrap& wrap : checked_array_wraps(subscripts, context)) {
    rewriter.InsertTextBefore(wrap.begin, wrap.before);
    rewriter.InsertTextAfterToken(wrap.end, wrap.after);
  }
}

// A subscript written inside a macro's arguments keeps its check: its text is not the user's.
void mark_proven_indexes(const std::vector<const clang::Expr*>& proven, clang::Rewriter& rewriter) {
  for (const clang::Expr* index : proven) {
    const clang::SourceRange range = index->getSourceRange();
    if (range.getBegin().isMacroID() || range.getEnd().isMacroID()) continue;
    rewriter.InsertTextBefore(range.getBegin(), "::carbide::detail::in_range(");
    rewriter.InsertTextAfterToken(range.getEnd(), ")");
  }
}

// `carbide::thread::index_1d()` becomes `::carbide::detail::index_1d_32()`: the callee's name
// as written, qualifier included, is replaced. One written inside a macro's arguments stays.
void mark_narrow_witnesses(const std::vector<const clang::CallExpr*>& sources_32, clang::Rewriter& rewriter) {
  for (const clang::CallExpr* call : sources_32) {
    const clang::SourceRange callee = call->getCallee()->IgnoreImplicit()->getSourceRange();
    const auto replacement = model::vocabulary::narrow_witness_source(call);
    if (!replacement || callee.getBegin().isMacroID() || callee.getEnd().isMacroID()) continue;
    rewriter.ReplaceText(callee, "::" + replacement->str());
  }
}

}  // namespace

std::string generate_device_source(const model::Program& program, clang::ASTContext& context,
                                   clang::Preprocessor& preprocessor, const std::string& generated_name, const ProvenFacts& proven,
                                   const tile::TilePrograms& tiles, bool device_checks) {
  const clang::SourceManager& sources = context.getSourceManager();
  clang::Rewriter rewriter(const_cast<clang::SourceManager&>(sources), context.getLangOpts());
  mark_device_functions(program, rewriter);
  (void)number_shared_sites(program, rewriter);
  mark_checked_arrays(proven.checked_arrays, context, rewriter);
  mark_proven_indexes(proven.in_range, rewriter);
  mark_narrow_witnesses(proven.narrow_witnesses, rewriter);

  const std::string source_name = support::printable_name(llvm::sys::path::filename(program.source_path));
  std::string out = banner(source_name, "device code for nvcc");
  if (device_checks)
    out += "// Views are bounds-checked: an index past the end traps instead of reading another "
           "allocation.\n// carbide::detail::in_range(i) marks a shared-memory index or a span read the "
           "translator\n// proved inside its array or view for every thread the launch allows; it is "
           "not checked again.\n#define CARBIDE_CHECKED 1\n";
  else
    out += "// DEVICE CHECKS OFF (carbide translate --device-checks=off), for measuring what they cost:\n"
           "// an index past a view's end reads or writes other memory. Never ship this.\n";
  out += "#include <carbide/device.hpp>\n";
  if (!tiles.kernels().empty()) out += "#include <carbide/tile/device.hpp>\n";
  for (const std::string& header : program.device.std_includes) out += "#include <" + header + ">\n";

  out += copy_macros(program.device.top_level_decls, preprocessor, program.source_path);
  out += copy_declarations(program.device.top_level_decls, rewriter, program.source_path);
  out += line_of_generated_file(out, generated_name);
  out += "\n// Entry points. A contract's block becomes the entry's .reqntid in the PTX, so the "
         "driver\n// also refuses a launch with any other block shape; the entry tells the compiler that shape.\n";
  for (const model::Module& module : program.modules)
    for (const model::Kernel& kernel : module.kernels)
      if (!kernel.is_tile) out += entry_point(module, kernel);
  if (!tiles.kernels().empty())
    out += "\n// Tile kernels, lowered by the translator (docs/tile-lowering.md): the planner's choices are\n"
           "// in each entry's comment, and every statement points back to its line.\n";
  for (const tile::PlannedKernel& kernel : tiles.kernels()) {
    out += tile::emit_tile_entry(kernel.model, kernel.plan, sources, program.source_path);
    out += line_of_generated_file(out, generated_name);
  }
  return out;
}

nvcc::ExactBlocks exact_blocks(const model::Program& program, const tile::TilePrograms& tiles) {
  nvcc::ExactBlocks blocks;
  for (const tile::PlannedKernel& kernel : tiles.kernels()) {
    blocks[kernel.model.kernel->entry_name] = {std::uint64_t(kernel.plan.threads), 1, 1};
    if (kernel.plan.whole_launch)
      blocks[tile::whole_entry_name(kernel.model.kernel->entry_name)] = {std::uint64_t(kernel.plan.threads), 1, 1};
  }
  for (const model::Module& module : program.modules)
    for (const model::Kernel& kernel : module.kernels)
      if (kernel.has_valid_contract()) blocks[kernel.entry_name] = kernel.contract->parsed->block;
  return blocks;
}

}  // namespace carbide::codegen
