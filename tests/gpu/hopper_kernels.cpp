// Kernels the GPU tests launch through a module translated for sm_90a alone (CMakeLists.txt), so
// that the tile GEMM is planned on wgmma fed by TMA (docs/tile-lowering.md).
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

namespace gpu_hopper {

namespace ct = carbide::tile;

template <int BM, int BN, int BK>
CARBIDE_TILE_KERNEL
void gemm(ct::out<ct::bf16, ct::shape<BM, BN>> c, ct::in<ct::bf16, 2> a, ct::in<ct::bf16, 2> b, float alpha) {
  auto [bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<BM, BK>{});
  auto pb = b.partition(ct::shape<BK, BN>{});
  auto acc = ct::zeros<float, ct::shape<BM, BN>>();
  for (int k : ct::irange(pa.tiles(1)))
    acc = ct::mma(pa.load(bm, k), pb.load(k, bn), acc);
  c.store(ct::cast<ct::bf16>(acc * alpha));
}
// The tests launch it from another file: the instance is named here.
template void gemm<128, 256, 64>(ct::out<ct::bf16, ct::shape<128, 256>>, ct::in<ct::bf16, 2>, ct::in<ct::bf16, 2>, float);

}  // namespace gpu_hopper
