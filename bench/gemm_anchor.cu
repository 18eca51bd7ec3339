// The tile GEMM's twin: the hand-written mma.sync GEMM of bench/experiments/mma_sync_gemm.cu
// (cp.async pipeline, ldmatrix, mma.sync m16n8k16, grouped rasterization), compiled here with its
// own main renamed out of the way, at the tile shape the planner chooses for samples/tile_gemm
// (128 × 256 × 64, 3 stages, 8 warps).
#define main mma_sync_gemm_main
#include "experiments/mma_sync_gemm.cu"
#undef main

namespace reference {

void launch_mma_sync_gemm(const void* a, const void* b, void* c, int m, int n, int k) {
  gemm::launch<Tile128x256x64, false>(static_cast<const bf16*>(a), static_cast<const bf16*>(b), static_cast<bf16*>(c), m, n, k);
}

}  // namespace reference
