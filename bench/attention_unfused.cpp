// The attention of samples/tile_attention written as three simpler tile kernels, as a user would
// without mma in a kernel's body: the scores S = Q·Kᵀ·scale of every head (masked above the
// diagonal when causal), a softmax of each row of S into P (bf16), and the batched GEMM O = P·V.
// carbide_bench times the fused kernel against these three launches (tile_rows.cpp).
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

namespace ct = carbide::tile;

namespace attention_unfused {

// S[h] = scale · Q[h] · K[h]ᵀ, one BM × BN tile a block; q and k are [heads, n, D].
template <int BM, int BN, int D, bool Causal>
CARBIDE_TILE_KERNEL
void scores(ct::out<float, ct::shape<1, BM, BN>> s, ct::in<ct::bf16, 3> q, ct::in<ct::bf16, 3> k, float scale) {
  auto [h, bm, bn] = s.coord();
  auto pq = q.partition(ct::shape<1, BM, D>{});
  auto pk = k.partition(ct::shape<1, BN, D>{});
  auto qt = ct::reshape<ct::shape<BM, D>>(pq.load(h, bm, 0));
  auto kt = ct::reshape<ct::shape<BN, D>>(pk.load(h, bn, 0));
  auto t = ct::mma(qt, ct::transpose(kt), ct::zeros<float, ct::shape<BM, BN>>()) * scale;
  if constexpr (Causal)
    t = ct::select(ct::iota<int, ct::shape<BM, BN>, 1>() + bn * BN <= ct::iota<int, ct::shape<BM, BN>, 0>() + bm * BM, t,
                   -INFINITY);
  s.store(ct::reshape<ct::shape<1, BM, BN>>(t));
}

// P = softmax of each row of S (rows of N).
template <int N>
CARBIDE_TILE_KERNEL
void softmax_rows(ct::out<ct::bf16, ct::shape<1, 1, N>> p, ct::in<float, 3> s) {
  auto t = ct::load_like(s, p, ct::pad(-INFINITY));
  auto e = ct::exp(t - ct::bcast<2>(ct::reduce_max<2>(t), t));
  p.store(ct::cast<ct::bf16>(e / ct::bcast<2>(ct::reduce_sum<2>(e), e)));
}

// O[h] = P[h] · V[h]: a batched GEMM.
template <int BM, int BN, int BK>
CARBIDE_TILE_KERNEL
void weighted_values(ct::out<ct::bf16, ct::shape<1, BM, BN>> o, ct::in<ct::bf16, 3> p, ct::in<ct::bf16, 3> v) {
  auto [h, bm, bn] = o.coord();
  auto pp = p.partition(ct::shape<1, BM, BK>{});
  auto pv = v.partition(ct::shape<1, BK, BN>{});
  auto acc = ct::zeros<float, ct::shape<1, BM, BN>>();
  for (int k : ct::irange(pp.tiles(2)))
    acc = ct::mma(pp.load(h, bm, k), pv.load(h, k, bn), acc);
  o.store(ct::cast<ct::bf16>(acc));
}

template void scores<64, 64, 64, false>(ct::out<float, ct::shape<1, 64, 64>>, ct::in<ct::bf16, 3>, ct::in<ct::bf16, 3>, float);
template void scores<64, 64, 64, true>(ct::out<float, ct::shape<1, 64, 64>>, ct::in<ct::bf16, 3>, ct::in<ct::bf16, 3>, float);
template void scores<64, 64, 128, false>(ct::out<float, ct::shape<1, 64, 64>>, ct::in<ct::bf16, 3>, ct::in<ct::bf16, 3>, float);
template void scores<64, 64, 128, true>(ct::out<float, ct::shape<1, 64, 64>>, ct::in<ct::bf16, 3>, ct::in<ct::bf16, 3>, float);
template void softmax_rows<4096>(ct::out<ct::bf16, ct::shape<1, 1, 4096>>, ct::in<float, 3>);
template void weighted_values<128, 64, 64>(ct::out<ct::bf16, ct::shape<1, 128, 64>>, ct::in<ct::bf16, 3>, ct::in<ct::bf16, 3>);
template void weighted_values<128, 128, 64>(ct::out<ct::bf16, ct::shape<1, 128, 128>>, ct::in<ct::bf16, 3>, ct::in<ct::bf16, 3>);

}  // namespace attention_unfused
