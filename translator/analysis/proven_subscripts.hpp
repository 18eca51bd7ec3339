// Which shared-memory subscripts need no bounds check: those whose index stays inside the
// array's compile-time extent for every thread of every launch the contract allows.
#pragma once

#include "analysis/device_analysis.hpp"

#include <clang/AST/ExprCXX.h>

#include <vector>

namespace carbide::analysis {

// `tile[i]` and `tile[lid]` in the device functions, in source order, whose index is proven in
// range by IndexBounds. Templates are left out: one text serves every instantiation.
std::vector<const clang::CXXOperatorCallExpr*> proven_shared_subscripts(const DeviceAnalysis& device);

}  // namespace carbide::analysis
