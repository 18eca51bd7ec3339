// The emitter: one tile kernel instance as a CUDA entry over the device library
// (carbide/tile/device.hpp), one C++ statement per statement of the kernel, each under a `#line`
// to the user's line. docs/tile-lowering.md shows what it writes.
#pragma once

#include "tile/planner.hpp"
#include "tile/tile_model.hpp"

#include <clang/Basic/SourceManager.h>

#include <string>

namespace carbide::tile {

// `source_path` is the name the `#line` directives give the user's file.
std::string emit_tile_entry(const TileKernel& kernel, const TilePlan& plan, const clang::SourceManager& sources,
                            const std::string& source_path);

}  // namespace carbide::tile
