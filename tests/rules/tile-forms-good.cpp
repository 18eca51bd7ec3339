// The Tile path's second vocabulary, each form in a small kernel that check accepts as written:
// mma in a loop's body with a carried accumulator, an operand read transposed, an A operand
// computed in registers, a loop bound from the block's coordinate, masks from iota and select,
// bcast along every axis, argmax and argmin, a reduction stored, per-row state through a loop,
// padding on partition loads, scalars on either side, functions over tiles, if constexpr on an
// enumeration template parameter, a constexpr helper's value in a scalar, a batch axis.
// RUN: %corpus_check %s 2>&1 | count 0
// RUN: %carbide check %s --cuda-arch sm_90a 2>&1 | count 0
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

namespace ct = carbide::tile;

namespace kernels {

constexpr float inverse_square_root(int d) { return d == 64 ? 0.125f : 0.0883883476f; }

template <class T>
T softplus(const T& x) {
  auto clipped = ct::min(x, 20.0f);
  return ct::log(1.0f + ct::exp(clipped));
}

enum class Mask { None, Causal };

template <int BM, int BN, int D, Mask M>
CARBIDE_TILE_KERNEL
void carried(ct::out<float, ct::shape<BM, D>> o, ct::in<ct::bf16, 2> q, ct::in<ct::bf16, 2> k, ct::in<ct::bf16, 2> v) {
  auto [bm, d0] = o.coord();
  const float scale = inverse_square_root(D);
  auto pq = q.partition(ct::shape<BM, D>{});
  auto pk = k.partition(ct::shape<BN, D>{});
  auto pv = v.partition(ct::shape<BN, D>{});
  auto qt = pq.load(bm, d0);
  auto acc = ct::zeros<float, ct::shape<BM, D>>();
  auto best = ct::full<float, ct::shape<BM>>(-INFINITY);
  for (int j : ct::irange(M == Mask::Causal ? bm + 1 : pk.tiles(0))) {
    auto s = ct::mma(qt, ct::transpose(pk.load(j, 0)), ct::zeros<float, ct::shape<BM, BN>>());
    if constexpr (M == Mask::Causal)
      s = ct::select(ct::iota<int, ct::shape<BM, BN>, 1>() + j * BN <= ct::iota<int, ct::shape<BM, BN>, 0>() + bm * BM, s,
                     -INFINITY);
    best = ct::max(best, ct::reduce_max<1>(s));
    acc = ct::mma(ct::cast<ct::bf16>(softplus(s * scale)), pv.load(j, 0), acc);
  }
  o.store(acc - ct::bcast<1>(best, acc));
}
template void carried<64, 64, 64, Mask::Causal>(ct::out<float, ct::shape<64, 64>>, ct::in<ct::bf16, 2>, ct::in<ct::bf16, 2>,
                                                ct::in<ct::bf16, 2>);

CARBIDE_TILE_KERNEL
void broadcasts(ct::out<float, ct::shape<2, 8, 64>> y, ct::in<float, 3> x, ct::in<float, 2> plane, ct::in<float, 1> row) {
  auto [z, i, j] = y.coord();
  auto pp = plane.partition(ct::shape<8, 64>{});
  auto pr = row.partition(ct::shape<64>{});
  auto t = ct::load_like(x, y, ct::pad(1.0f));
  auto across_batch = ct::bcast<0>(pp.load(i, j), t);                            // shape<8, 64> over axis 0
  auto columns = ct::reshape<ct::shape<16, 64>>(t);
  auto spread = ct::reshape<ct::shape<2, 8, 64>>(ct::bcast<0>(pr.load(j), columns));  // a row across rows
  auto middle = ct::bcast<1>(ct::reduce_sum<1>(t), t);                           // a middle axis
  y.store(t * across_batch + spread - middle);
}

CARBIDE_TILE_KERNEL
void arg_rows(ct::out<int, ct::shape<8>> first, ct::out<int, ct::shape<8>> last_min, ct::in<float, 2> x) {
  auto [i] = first.coord();
  auto px = x.partition(ct::shape<8, 128>{});
  auto t = px.load(i, 0, ct::pad(-INFINITY));
  first.store(ct::argmax<1>(t));
  last_min.store(ct::argmin<1>(ct::select(t == -INFINITY, INFINITY, t)));
}

CARBIDE_TILE_KERNEL
void column_stats(ct::out<float, ct::shape<128>> sums, ct::in<float, 2> x) {
  auto [j] = sums.coord();
  auto px = x.partition(ct::shape<32, 128>{});
  auto total = ct::zeros<float, ct::shape<128>>();
  for (int i : ct::irange(px.tiles(0))) total = total + ct::reduce_sum<0>(px.load(i, j));
  sums.store(ct::max(0.0f, total) * 2.0f + ct::fma(total, 0.5f, 1.0f));
}

template <int BM, int BN, int BK>
CARBIDE_TILE_KERNEL
void batched(ct::out<float, ct::shape<1, BM, BN>> c, ct::in<ct::bf16, 3> a, ct::in<ct::bf16, 3> b) {
  auto [z, bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<1, BM, BK>{});
  auto pb = b.partition(ct::shape<1, BK, BN>{});
  auto acc = ct::zeros<float, ct::shape<1, BM, BN>>();
  for (int k : ct::irange(pa.tiles(2)))
    acc = ct::mma(pa.load(z, bm, k), pb.load(z, k, bn), acc);
  c.store(acc);
}
template void batched<64, 64, 32>(ct::out<float, ct::shape<1, 64, 64>>, ct::in<ct::bf16, 3>, ct::in<ct::bf16, 3>);

}  // namespace kernels
