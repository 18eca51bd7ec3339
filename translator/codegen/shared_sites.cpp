#include "codegen/shared_sites.hpp"

#include "model/vocabulary.hpp"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

namespace carbide::codegen {
namespace {

class SharedSiteNumberer : public clang::RecursiveASTVisitor<SharedSiteNumberer> {
 public:
  explicit SharedSiteNumberer(clang::Rewriter& rewriter) : rewriter_(rewriter) {}

  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    if (model::vocabulary::is_block_shared(ref->getDecl()))
      number(ref->getNameInfo().getLoc(), ref->getRAngleLoc());
    return true;
  }
  bool VisitUnresolvedLookupExpr(clang::UnresolvedLookupExpr* lookup) {
    for (const clang::NamedDecl* candidate : lookup->decls())
      if (model::vocabulary::is_block_shared(candidate)) {
        number(lookup->getNameLoc(), lookup->getRAngleLoc());
        break;
      }
    return true;
  }

  std::map<clang::SourceLocation, unsigned> numbers;

 private:
  void number(clang::SourceLocation name, clang::SourceLocation right_angle) {
    const clang::SourceManager& sources = rewriter_.getSourceMgr();
    const clang::SourceLocation at = sources.getExpansionLoc(name);
    if (right_angle.isInvalid() || numbers.count(at)) return;
    const unsigned site = unsigned(numbers.size());
    numbers[at] = site;
    rewriter_.ReplaceText(at, 6, "shared_at");
    rewriter_.InsertTextBefore(sources.getExpansionLoc(right_angle), ", " + std::to_string(site));
  }
  clang::Rewriter& rewriter_;
};

}  // namespace

std::map<clang::SourceLocation, unsigned> number_shared_sites(const model::Program& program,
                                                              clang::Rewriter& rewriter) {
  SharedSiteNumberer numberer(rewriter);
  for (const clang::FunctionDecl* function : program.device.functions)
    if (function->hasBody()) numberer.TraverseStmt(function->getBody());
  return std::move(numberer.numbers);
}

}  // namespace carbide::codegen
