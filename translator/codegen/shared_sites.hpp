// Each `block::shared<T, N>()` call of device code is its own array (DESIGN §2.1): both copies of
// the device code (the .cu and the CPU form) rewrite it to `block::shared_at<T, N, Site>()`, one
// number per call site, counted in the same order so that both name a site alike.
#pragma once

#include "model/module_model.hpp"

#include <clang/Basic/SourceLocation.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <map>

namespace carbide::codegen {

// Rewrites every call site and returns its number, by where its `shared` token is written.
std::map<clang::SourceLocation, unsigned> number_shared_sites(const model::Program& program,
                                                              clang::Rewriter& rewriter);

}  // namespace carbide::codegen
