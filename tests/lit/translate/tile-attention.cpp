// Forward attention as one tile kernel (samples/tile_attention writes it so): S = Q·Kᵀ read with
// K transposed in place, masks from iota and select, the running maximum and sum carried through
// the loop in the rows of S's layout, the accumulator rescaled in registers, and P·V with P taken
// from the registers as the A operand. A causal instance stops at the diagonal: its loop bound
// depends on the tile block's coordinate. Translated for sm_90 and for sm_90a (where the body's
// mma stays mma.sync: the wgmma plan is the GEMM k-loop's); ptxas accepts both.
// RUN: rm -rf %t && %carbide check %s
// RUN: %carbide translate %s -o %t/sm90 --cuda-arch sm_90
// RUN: FileCheck %s < %t/sm90/tile-attention.carbide.cu
// RUN: %ptxas -arch=sm_90 %t/sm90/tile-attention.ptx -o %t/sm90.cubin
// RUN: %carbide translate %s -o %t/sm90a --cuda-arch sm_90a
// RUN: %ptxas -arch=sm_90a %t/sm90a/tile-attention.ptx -o %t/sm90a.cubin
// RUN: FileCheck --check-prefix=STUB %s < %t/sm90a/tile-attention.carbide.cpp
// RUN: %cxx_user -I%t/sm90 -include %t/sm90/tile-attention.carbide.hpp -fsyntax-only %s
// RUN: %cxx_user -I%t/sm90 -fsyntax-only %t/sm90/tile-attention.carbide.cpp
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

#include <algorithm>

namespace ct = carbide::tile;

namespace kernels {

template <int BM, int BN, int D, bool Causal>
CARBIDE_TILE_KERNEL
void attention(ct::out<ct::bf16, ct::shape<1, BM, D>> o, ct::in<ct::bf16, 3> q, ct::in<ct::bf16, 3> k,
               ct::in<ct::bf16, 3> v, float scale) {
  auto [h, bm, d0] = o.coord();
  const int n = k.extent(1);
  auto pq = q.partition(ct::shape<1, BM, D>{});
  auto pk = k.partition(ct::shape<1, BN, D>{});
  auto pv = v.partition(ct::shape<1, BN, D>{});
  auto qt = ct::reshape<ct::shape<BM, D>>(pq.load(h, bm, d0));
  auto m = ct::full<float, ct::shape<BM>>(-INFINITY);
  auto l = ct::zeros<float, ct::shape<BM>>();
  auto acc = ct::zeros<float, ct::shape<BM, D>>();
  const int tiles = Causal ? std::min(pk.tiles(1), ((bm + 1) * BM + BN - 1) / BN) : pk.tiles(1);
  for (int j : ct::irange(tiles)) {
    auto kt = ct::reshape<ct::shape<BN, D>>(pk.load(h, j, 0));
    auto s = ct::mma(qt, ct::transpose(kt), ct::zeros<float, ct::shape<BM, BN>>()) * scale;
    auto key = ct::iota<int, ct::shape<BM, BN>, 1>() + j * BN;
    s = ct::select(key < n, s, -INFINITY);
    if constexpr (Causal) s = ct::select(key <= ct::iota<int, ct::shape<BM, BN>, 0>() + bm * BM, s, -INFINITY);
    auto m_new = ct::max(m, ct::reduce_max<1>(s));
    auto p = ct::exp(s - ct::bcast<1>(m_new, s));
    auto alpha = ct::exp(m - m_new);
    l = l * alpha + ct::reduce_sum<1>(p);
    acc = ct::mma(ct::cast<ct::bf16>(p), ct::reshape<ct::shape<BN, D>>(pv.load(h, j, 0)), acc * ct::bcast<1>(alpha, acc));
    m = m_new;
  }
  o.store(ct::reshape<ct::shape<1, BM, D>>(ct::cast<ct::bf16>(acc / ct::bcast<1>(l, acc))));
}
template void attention<64, 64, 64, false>(ct::out<ct::bf16, ct::shape<1, 64, 64>>, ct::in<ct::bf16, 3>, ct::in<ct::bf16, 3>,
                                           ct::in<ct::bf16, 3>, float);
template void attention<64, 64, 128, true>(ct::out<ct::bf16, ct::shape<1, 64, 128>>, ct::in<ct::bf16, 3>, ct::in<ct::bf16, 3>,
                                           ct::in<ct::bf16, 3>, float);

}  // namespace kernels

// CHECK-LABEL: // kernels::attention<64, 64, 64, false>: tile kernel; the planner chose 128 threads, mma.sync m16n8k16 in 4 warps along M, tiles in chunks of 8 elements
// CHECK: using LM = ctd::mma_c<4, 1>;
// CHECK: constexpr int kScratch = 16384;
// CHECK: auto m = ctd::full<float, ct::shape<64>, ctd::rows_of<LM, 0>>(static_cast<float>((-INFINITY)));
// CHECK: auto acc = ctd::zeros<float, ct::shape<64, 64>, LM>();
// CHECK: for (int j = 0; j < (tiles); ++j) {
// CHECK: auto s = (ctd::mma<kScratch>(qt, ctd::read_transposed(kt), ctd::zeros<float, ct::shape<64, 64>, LM>()) * (scale));
// CHECK: auto key = (ctd::iota<int, ct::shape<64, 64>, LM, 1>() + (j * BN));
// CHECK-NOT: bm * BM
// CHECK: auto m_new = ctd::max(m, ctd::reduce_max<1, 0>(s));
// CHECK: acc = ctd::mma<kScratch>(ctd::cast<carbide::tile::bf16>(p), ctd::reshape<ct::shape<64, 64>>(ctd::load<ct::shape<1, 64, 64>, L0>(v, {h, j, 0}, static_cast<carbide::tile::bf16>(0))), (acc * ctd::bcast<1>(alpha, acc)));
// CHECK: ctd::store(o, o_coord, ctd::reshape<ct::shape<1, 64, 64>, LM, 0>(ctd::cast<carbide::tile::bf16>((acc / ctd::bcast<1>(l, acc)))));
// CHECK-LABEL: // kernels::attention<64, 64, 128, true>: tile kernel
// CHECK: const int tiles = Causal ? std::min(ctd::tile_count<1, 64, 128>(k, 1), ((bm + 1) * BM + BN - 1) / BN) : ctd::tile_count<1, 64, 128>(k, 1);
// CHECK: s = ctd::select((key <= (ctd::iota<int, ct::shape<64, 64>, LM, 0>() + (bm * BM))), s, (-INFINITY));
// STUB: const carbide::LaunchContract attention_64_64_64_false_contract{
// STUB-NEXT: "kernels::attention<64, 64, 64, false>", 1, {128, 1, 1}, 16384, 80, 128};
