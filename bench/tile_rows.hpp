// The Tile path's rows of carbide_bench: each tile sample against its hand-written twin and the
// copy rate; the tile GEMM against cublasGemmEx (bf16 in and out, f32 compute) on the same inputs;
// tile attention against the same attention as three simpler tile kernels.
#pragma once

#include "bench_support.hpp"

#include <cublas_v2.h>

namespace bench {

void add_tile_rows(const carbide::Context& context, const carbide::Stream& stream, cublasHandle_t cublas,
                   std::mt19937& generator, std::vector<Row>& rows, std::vector<GemmRow>& gemms,
                   std::vector<FusedRow>& fused);

}  // namespace bench
