// What the conditions around an access say about the flat local index L of the threads that
// perform it, and whether two accesses can reach one slot from two different threads.
#pragma once

#include "analysis/thread_values.hpp"

namespace carbide::analysis {

struct LocalRange {
  std::vector<Affine> upper;  // L < u, for each u
  std::vector<Affine> lower;  // L >= w, for each w
  std::optional<std::int64_t> equal;
  std::int64_t modulus = 1;  // L % modulus == residue
  std::int64_t residue = 0;
};

LocalRange local_range_for(const ThreadValues& values, const clang::Stmt* statement);

// The affine form of a shared index; the local witness itself is L.
std::optional<Affine> index_form(const ThreadValues& values, const clang::Expr* index);

// True when index `a` (of a thread in range `ra`) and index `b` (of another thread in `rb`)
// are provably never the same slot, in blocks of `shape`.
bool distinct_for_different_threads(const Affine& a, const LocalRange& ra, const Affine& b,
                                    const LocalRange& rb, const BlockShape& shape);

}  // namespace carbide::analysis
