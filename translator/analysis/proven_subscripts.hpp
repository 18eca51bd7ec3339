// Which shared-memory indexes need no bounds check: those that stay inside the array's
// compile-time extent for every thread of every launch the contract allows.
#pragma once

#include "analysis/device_analysis.hpp"

#include <clang/AST/Expr.h>

#include <vector>

namespace carbide::analysis {

// The index of each `tile[i]`, `tile[lid]` and `tile.fetch_add(i, v)` in the device functions,
// as written, in source order, that IndexBounds proves in range in every block its function runs
// in. A template's index is listed only when it is proven in every instantiation: one text serves
// them all.
std::vector<const clang::Expr*> proven_shared_indexes(const DeviceAnalysis& device);

}  // namespace carbide::analysis
