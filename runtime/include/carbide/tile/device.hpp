// What a generated .carbide.cu includes for its tile kernels: the device library the emitter's
// calls land in (namespace carbide::tile::detail, `ctd` in the emitted code). See
// docs/tile-lowering.md.
#pragma once

// Scalars in a tile kernel's statements may call the standard library's std::min, std::max and
// math functions, as the user wrote them.
#include <algorithm>
#include <cmath>

#include <carbide/tile/args.hpp>
#include <carbide/tile/block.hpp>
#include <carbide/tile/block_reduce.hpp>
#include <carbide/tile/elementwise.hpp>
#include <carbide/tile/exchange.hpp>
#include <carbide/tile/gemm_sm80.hpp>
#include <carbide/tile/gemm_sm90.hpp>
#include <carbide/tile/layouts.hpp>
#include <carbide/tile/mma_block.hpp>
#include <carbide/tile/shape.hpp>
#include <carbide/tile/types.hpp>
