// The tile GEMM's twin: the hand-written wgmma + TMA GEMM of bench/experiments/wgmma_tma_gemm.cuh
// (a TMA producer warpgroup, two consumer warpgroups of m64n256k16, four stages, grouped
// rasterization), at the plan the planner chooses for samples/tile_gemm on sm_90a
// (128 × 256 × 64, 4 stages). Built for sm_90a alone (bench/CMakeLists.txt).
#include "experiments/wgmma_tma_gemm.cuh"

namespace reference {

void launch_wgmma_gemm(const void* a, const void* b, void* c, int m, int n, int k) {
  wgmma::launch<wgmma::Tiling<128, 256, 4>>(static_cast<const bf16*>(a), static_cast<const bf16*>(b),
                                            static_cast<bf16*>(c), m, n, k);
}

}  // namespace reference
