#include "analysis/view_claims.hpp"

#include "analysis/device_analysis.hpp"
#include "analysis/shared_accesses.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/RecursiveASTVisitor.h>

namespace carbide::analysis {
namespace {

// The view variable an expression names: `out`, also as the copy a by-value argument makes.
// The view an expression names, by where it comes from: a local copy of a view or a reference
// to one (`auto other = out;`, `auto& alias = out;`) is the view it was made from, since its
// elements are the same memory.
const clang::ValueDecl* named_view(const clang::Expr* expr, int depth = 0) {
  expr = expr->IgnoreParenImpCasts();
  if (const auto* copy = llvm::dyn_cast<clang::CXXConstructExpr>(expr); copy && copy->getNumArgs() == 1)
    expr = copy->getArg(0)->IgnoreParenImpCasts();
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr);
  if (ref == nullptr) return nullptr;
  const auto* local = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
  if (local != nullptr && !llvm::isa<clang::ParmVarDecl>(local) && local->hasLocalStorage() && local->getInit() &&
      depth < 16)
    if (const clang::ValueDecl* origin = named_view(local->getInit(), depth + 1)) return origin;
  return ref->getDecl();
}

// `get_mut_chunk<4>`: the method and its template arguments, which fix the partition; for a
// butterfly pair its stride too, for a block region its size (two of either overlap), and for a
// halo witness its radius (`get_mut(index_2d_halo<2>)`).
std::string form_of(const clang::CXXMemberCallExpr* call, const clang::ASTContext& ast) {
  const clang::CXXMethodDecl* method = call->getMethodDecl();
  std::string form = method->getNameAsString();
  llvm::raw_string_ostream out(form);
  const clang::CXXRecordDecl* witness =
      call->getNumArgs() == 0 ? nullptr : call->getArg(0)->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (const auto radius = model::vocabulary::halo_radius(witness)) {
    // As the user writes the source: index_2d_halo<2>.
    out << "(" << witness->getName().drop_back(llvm::StringRef("_witness").size()) << "<" << *radius << ">)";
    return form;
  }
  if (const clang::TemplateArgumentList* arguments = method->getTemplateSpecializationArgs())
    clang::printTemplateArgumentList(out, arguments->asArray(), ast.getPrintingPolicy());
  if (const auto sized = model::vocabulary::sized_claim(method); sized && sized->argument < call->getNumArgs()) {
    out << "(" << sized->what << " ";
    call->getArg(sized->argument)->IgnoreParenImpCasts()->printPretty(out, nullptr, ast.getPrintingPolicy());
    out << ")";
  }
  return form;
}

// The piece of a claim made with index_2d_transposed()'s witness; none for any other witness.
std::optional<TransposedPiece> transposed_piece(const clang::CXXMemberCallExpr* call) {
  if (call->getNumArgs() == 0) return std::nullopt;
  const clang::CXXRecordDecl* witness =
      call->getArg(0)->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!model::vocabulary::places_blocks_transposed(witness)) return std::nullopt;
  TransposedPiece piece;
  if (const clang::TemplateArgumentList* extents = call->getMethodDecl()->getTemplateSpecializationArgs();
      extents && extents->size() == 2 && extents->get(0).getKind() == clang::TemplateArgument::Integral &&
      extents->get(1).getKind() == clang::TemplateArgument::Integral) {
    piece.rows = extents->get(0).getAsIntegral().getZExtValue();
    piece.cols = extents->get(1).getAsIntegral().getZExtValue();
  }
  return piece;
}

// K of a chunk claim, the first template argument.
std::optional<std::uint64_t> chunk_extent(const clang::CXXMethodDecl* method) {
  if (!model::vocabulary::is_chunk_claim(method)) return std::nullopt;
  const clang::TemplateArgumentList* arguments = method->getTemplateSpecializationArgs();
  if (arguments == nullptr || arguments->size() == 0 ||
      arguments->get(0).getKind() != clang::TemplateArgument::Integral)
    return std::nullopt;
  return arguments->get(0).getAsIntegral().getZExtValue();
}

// The claim a piece comes from: `out.get_mut_chunk<4>(idx)` itself, or the local variable it
// initialises (`if (auto mine = out.get_mut_chunk<4>(idx))`).
const clang::CXXMemberCallExpr* claim_of_piece(const clang::Expr* piece) {
  piece = piece->IgnoreImplicit()->IgnoreParenImpCasts();
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(piece)) {
    const auto* variable = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (variable == nullptr || !variable->hasLocalStorage() || llvm::isa<clang::ParmVarDecl>(variable) ||
        variable->getInit() == nullptr)
      return nullptr;
    piece = variable->getInit()->IgnoreImplicit()->IgnoreParenImpCasts();
  }
  return llvm::dyn_cast<clang::CXXMemberCallExpr>(piece);
}

bool stores_whole_chunks(const ViewClaims& claims) {
  for (const auto& [view, made] : claims)
    for (const ViewClaim& claim : made)
      if (claim.whole_chunk) return true;
  return false;
}

}  // namespace

bool is_whole_store(const clang::CXXMemberCallExpr* call) {
  return model::vocabulary::is_whole_chunk_store(call->getMethodDecl());
}

const std::vector<const clang::Expr*>& ViewClaimFinder::untraced_whole_stores(const clang::FunctionDecl* function) {
  claims_of(function);
  return untraced_[function];
}

const ViewClaims& ViewClaimFinder::claims_of(const clang::FunctionDecl* function) {
  if (const auto known = claims_.find(function); known != claims_.end()) return known->second;
  claims_[function];  // empty while it is being read, which ends recursion through a cycle

  struct Walker : clang::RecursiveASTVisitor<Walker> {
    ViewClaimFinder* finder;
    ViewClaims found;
    std::vector<const clang::CXXMemberCallExpr*> whole_stores;
    std::vector<const clang::Expr*> untraced;
    bool VisitCallExpr(clang::CallExpr* call) {
      if (const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(call)) {
        const clang::CXXMethodDecl* method = member->getMethodDecl();
        if (is_whole_store(member)) whole_stores.push_back(member);
        if (method && method->getName().starts_with("get_mut") && is_disjoint_view(method->getParent()))
          if (const clang::ValueDecl* view = named_view(member->getImplicitObjectArgument())) {
            const auto transposed = transposed_piece(member);
            // The block order is part of the partition: tile (r, c) of one form is another
            // block's tile in the other.
            std::string form = form_of(member, finder->ast_);
            if (transposed) form += " at transposed block coordinates";
            found[view].push_back({member, std::move(form), member, transposed, std::nullopt});
          }
        if (method && model::vocabulary::is_carbide(method)) return true;
      }
      // A helper's claims on a view passed in are claims on that view here: free functions,
      // member functions and lambdas alike (a member operator's first argument is its object).
      const clang::FunctionDecl* callee = call->getDirectCallee();
      const clang::FunctionDecl* definition = nullptr;
      if (!callee || !callee->hasBody(definition)) return true;
      const ViewClaims& inside = finder->claims_of(definition);
      const unsigned offset = first_parameter_argument(call);
      for (unsigned i = offset; i < call->getNumArgs() && i - offset < definition->getNumParams(); ++i) {
        const clang::ValueDecl* view = named_view(call->getArg(i));
        const auto passed = inside.find(definition->getParamDecl(i - offset));
        if (passed == inside.end()) continue;
        if (!view) {
          if (llvm::any_of(passed->second, [](const ViewClaim& claim) { return claim.whole_chunk.has_value(); }))
            untraced.push_back(call);
          continue;
        }
        for (const ViewClaim& claim : passed->second)
          found[view].push_back({claim.claim, claim.form, call, claim.transposed, claim.whole_chunk});
      }
      return true;
    }
  } walker;
  walker.finder = this;
  if (const clang::Stmt* body = function->getBody()) walker.TraverseStmt(const_cast<clang::Stmt*>(body));
  // Each whole store marks the claim its chunk came from; a chunk from anywhere else is untraced.
  for (const clang::CXXMemberCallExpr* store : walker.whole_stores) {
    const clang::CXXMemberCallExpr* claim = claim_of_piece(store->getImplicitObjectArgument());
    const auto extent = claim ? chunk_extent(claim->getMethodDecl()) : std::nullopt;
    bool marked = false;
    for (auto& [view, claims] : walker.found)
      for (ViewClaim& made : claims)
        if (extent && made.claim == claim && made.site == claim) {
          made.whole_chunk = extent;
          marked = true;
        }
    if (!marked) walker.untraced.push_back(store);
  }
  untraced_[function] = std::move(walker.untraced);
  return claims_[function] = std::move(walker.found);
}

}  // namespace carbide::analysis
