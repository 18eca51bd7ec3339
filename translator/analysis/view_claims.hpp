// Which ownership form each device function claims of each exclusive view it names (a parameter
// or a local, a local copy of or reference to a view standing for the view it was made from),
// directly or inside the helpers it passes the view to (functions, member functions, lambdas). Each form partitions a view
// its own way (an element, a chunk of K, a tile), so a rule can tell when one view is claimed
// two ways. Reports nothing itself.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace carbide::analysis {

// A claim made with thread::index_2d_transposed(): the piece one thread gets, Rows × Cols of
// get_mut_tile or get_mut_strided_tile, 1 × 1 of get_mut. A block's tile is that times the block.
struct TransposedPiece {
  std::uint64_t rows = 1, cols = 1;
};

struct ViewClaim {
  const clang::CXXMemberCallExpr* claim;  // `view.get_mut_chunk<4>(idx)`, in this function or a helper
  std::string form;                       // "get_mut_chunk<4>"
  const clang::Expr* site;                // in the function asked about: the claim, or the call that makes it
  std::optional<TransposedPiece> transposed;  // set when the witness places blocks transposed
  // K when the piece is a chunk of K (get_mut_chunk<K>, get_mut_strided_chunks<K, N>) that the
  // function calls store_whole on: the launch must check that the view is whole chunks of K.
  std::optional<std::uint64_t> whole_chunk;
};

// Per view, in the order the function's body makes them.
using ViewClaims = std::map<const clang::ValueDecl*, std::vector<ViewClaim>>;

class ViewClaimFinder {
 public:
  explicit ViewClaimFinder(const clang::ASTContext& ast) : ast_(ast) {}
  const ViewClaims& claims_of(const clang::FunctionDecl* function);
  // Whole-chunk stores in `function` that no view's claim accounts for, so the launch could not
  // check the view's length: `c.store_whole(v)` on a chunk not claimed in the function (a chunk
  // passed in by reference), and calls that pass a helper whose claims store whole chunks
  // something other than a named view.
  const std::vector<const clang::Expr*>& untraced_whole_stores(const clang::FunctionDecl* function);

 private:
  const clang::ASTContext& ast_;
  std::map<const clang::FunctionDecl*, ViewClaims> claims_;
  std::map<const clang::FunctionDecl*, std::vector<const clang::Expr*>> untraced_;
};

// `c.store_whole(v)` or `c.store_whole(j, v)` on a chunk piece of an exclusive view.
bool is_whole_store(const clang::CXXMemberCallExpr* call);

}  // namespace carbide::analysis
