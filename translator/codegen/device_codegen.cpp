#include "codegen/device_codegen.hpp"

#include "codegen/generated_text.hpp"
#include "model/annotations.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/Lex/Lexer.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <set>

namespace carbide::codegen {
namespace {

std::vector<std::string> enclosing_namespaces(const clang::Decl* decl) {
  std::vector<std::string> path;
  for (const clang::DeclContext* scope = decl->getDeclContext(); !scope->isTranslationUnit();
       scope = scope->getParent())
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(scope))
      path.insert(path.begin(), ns->getNameAsString());  // "" for an anonymous namespace
  return path;
}

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

// Each `block::shared<T, N>()` in device code becomes `block::shared_at<T, N, Site>()`, so that
// every call site has its own __shared__ array (one template instance per site).
class SharedSiteNumberer : public clang::RecursiveASTVisitor<SharedSiteNumberer> {
 public:
  explicit SharedSiteNumberer(clang::Rewriter& rewriter) : rewriter_(rewriter) {}

  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    if (ref->getDecl()->getQualifiedNameAsString() == "carbide::block::shared")
      number(ref->getNameInfo().getLoc(), ref->getRAngleLoc());
    return true;
  }
  bool VisitUnresolvedLookupExpr(clang::UnresolvedLookupExpr* lookup) {
    for (const clang::NamedDecl* candidate : lookup->decls())
      if (candidate->getQualifiedNameAsString() == "carbide::block::shared") {
        number(lookup->getNameLoc(), lookup->getRAngleLoc());
        break;
      }
    return true;
  }

 private:
  void number(clang::SourceLocation name, clang::SourceLocation right_angle) {
    const clang::SourceManager& sources = rewriter_.getSourceMgr();
    if (right_angle.isInvalid() || !numbered_.insert(sources.getExpansionLoc(name)).second) return;
    rewriter_.ReplaceText(sources.getExpansionLoc(name), 6, "shared_at");
    rewriter_.InsertTextBefore(sources.getExpansionLoc(right_angle),
                               ", " + std::to_string(next_site_++));
  }
  clang::Rewriter& rewriter_;
  unsigned next_site_ = 0;
  std::set<clang::SourceLocation> numbered_;
};

void number_shared_sites(const model::Program& program, clang::Rewriter& rewriter) {
  SharedSiteNumberer numberer(rewriter);
  for (const clang::FunctionDecl* function : program.device.functions)
    if (function->hasBody()) numberer.TraverseStmt(function->getBody());
}

// The last declaration of `decl`'s group: `constexpr unsigned a = 1, b = 2;` declares a and b
// with one beginning, and its text is emitted once, whole.
const clang::Decl* last_of_group(const clang::Decl* decl) {
  const clang::Decl* last = decl;
  for (const clang::Decl* sibling : decl->getDeclContext()->decls())  // in source order
    if (sibling->getBeginLoc() == decl->getBeginLoc() && llvm::isa<clang::VarDecl>(sibling))
      last = sibling;
  return last;
}

// The declaration's (group's) text with the trailing semicolon that ends a class or variable.
clang::CharSourceRange unit_range(const clang::Decl* decl, const clang::SourceManager& sources,
                                  const clang::LangOptions& language) {
  const clang::SourceLocation begin = sources.getExpansionLoc(decl->getBeginLoc());
  clang::SourceLocation end = clang::Lexer::getLocForEndOfToken(
      sources.getExpansionLoc(last_of_group(decl)->getEndLoc()), 0, sources, language);
  const char* text = sources.getCharacterData(end);
  std::size_t skip = 0;
  while (text[skip] == ' ' || text[skip] == '\t') ++skip;
  if (text[skip] == ';') end = end.getLocWithOffset(int(skip) + 1);
  return clang::CharSourceRange::getCharRange(begin, end);
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

std::string entry_point(const model::Module& module, const model::Kernel& kernel) {
  std::string params, args;
  for (std::size_t i = 0; i < kernel.params.size(); ++i) {
    const model::Parameter& param = kernel.params[i];
    const std::string name = param.name.empty() ? "arg" + std::to_string(i) : param.name;
    params += (i ? ", " : "") + param.device_type + " " + name;
    args += (i ? ", " : "") + name;
  }
  std::string text = "// " + kernel.qualified_name;
  if (kernel.has_valid_contract()) text += ": launch contract `" + kernel.contract->text + "`";
  text += "\nextern \"C\" __global__ void " + launch_attributes(kernel) + kernel.entry_name + "(" +
          params + ") {\n  ::" + module.qualified_name + "::" + kernel.name + "(" + args + ");\n}\n";
  return text;
}

// A subscript written inside a macro's arguments keeps its check: its text is not the user's.
void mark_proven_subscripts(const std::vector<const clang::CXXOperatorCallExpr*>& proven,
                            clang::Rewriter& rewriter) {
  for (const clang::CXXOperatorCallExpr* subscript : proven) {
    const clang::Expr* index = subscript->getArg(1);
    const clang::SourceRange range = index->getSourceRange();
    if (range.getBegin().isMacroID() || range.getEnd().isMacroID()) continue;
    rewriter.InsertTextBefore(range.getBegin(), "::carbide::detail::in_range(");
    rewriter.InsertTextAfterToken(range.getEnd(), ")");
  }
}

std::size_t count_lines(const std::string& text) {
  return std::size_t(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

std::string generate_device_source(
    const model::Program& program, clang::ASTContext& context, const std::string& generated_name,
    const std::vector<const clang::CXXOperatorCallExpr*>& proven_in_range) {
  const clang::SourceManager& sources = context.getSourceManager();
  clang::Rewriter rewriter(const_cast<clang::SourceManager&>(sources), context.getLangOpts());
  mark_device_functions(program, rewriter);
  number_shared_sites(program, rewriter);
  mark_proven_subscripts(proven_in_range, rewriter);

  const std::string source_name = llvm::sys::path::filename(program.source_path).str();
  std::string out = banner(source_name, "device code for nvcc");
  out += "// Views are bounds-checked: an index past the end traps instead of reading another "
         "allocation.\n// carbide::detail::in_range(i) marks a shared-memory index the translator "
         "proved inside\n// the array for every thread the launch contract allows; it is not "
         "checked again.\n#define CARBIDE_CHECKED 1\n#include <carbide/device.hpp>\n";
  for (const std::string& header : program.device.std_includes) out += "#include <" + header + ">\n";

  std::vector<std::string> open;
  std::set<clang::SourceLocation> emitted;  // group beginnings
  for (const clang::Decl* decl : program.device.top_level_decls) {
    if (!emitted.insert(sources.getExpansionLoc(decl->getBeginLoc())).second) continue;
    const std::vector<std::string> path = enclosing_namespaces(decl);
    if (path != open) {
      out += "\n" + close_namespaces(open) + open_namespaces(path);
      open = path;
    }
    const clang::CharSourceRange range = unit_range(decl, sources, context.getLangOpts());
    const unsigned line = sources.getExpansionLineNumber(range.getBegin());
    const unsigned column = sources.getExpansionColumnNumber(range.getBegin());
    const bool in_main_file = sources.isInMainFile(range.getBegin());
    const std::string file = in_main_file ? program.source_path : sources.getFilename(range.getBegin()).str();
    out += "#line " + std::to_string(line) + " \"" + file + "\"\n" +
           std::string(column - 1, ' ') + rewriter.getRewrittenText(range) + "\n";
  }
  out += close_namespaces(open);

  out += "#line " + std::to_string(count_lines(out) + 2) + " \"" + generated_name + "\"\n";
  out += "\n// Entry points. A contract's block becomes the entry's .reqntid in the PTX, so the "
         "driver\n// also refuses a launch with any other block shape.\n";
  for (const model::Module& module : program.modules)
    for (const model::Kernel& kernel : module.kernels) out += entry_point(module, kernel);
  return out;
}

nvcc::ExactBlocks exact_blocks(const model::Program& program) {
  nvcc::ExactBlocks blocks;
  for (const model::Module& module : program.modules)
    for (const model::Kernel& kernel : module.kernels)
      if (kernel.has_valid_contract()) blocks[kernel.entry_name] = kernel.contract->parsed->block;
  return blocks;
}

}  // namespace carbide::codegen
