// The tile kernels a Tile-DSL user writes first, in their natural form, for the GPU tests of
// tile_language_gpu_test.cpp: translated for sm_80 and sm_90 (CMakeLists.txt), so every mma runs
// on mma.sync. Each is checked there against a float64 CPU reference.
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

#include "tile_language_types.hpp"

#include <algorithm>

namespace gpu_tile_language {

namespace ct = carbide::tile;

// A weight row spread over the rows (bcast<0> of a loaded rank-1 tile).
template <int B>
CARBIDE_TILE_KERNEL
void rmsnorm(ct::out<ct::bf16, ct::shape<1, B>> y, ct::in<ct::bf16, 2> x, ct::in<ct::bf16, 1> w, float eps) {
  const int n = x.extent(1);
  auto pw = w.partition(ct::shape<B>{});
  auto t = ct::cast<float>(ct::load_like(x, y));
  auto r = ct::rsqrt(ct::reduce_sum<1>(t * t) / float(n) + eps);
  y.store(ct::cast<ct::bf16>(t * ct::bcast<1>(r, t) * ct::bcast<0>(ct::cast<float>(pw.load(0)), t)));
}
template void rmsnorm<4096>(ct::out<ct::bf16, ct::shape<1, 4096>>, ct::in<ct::bf16, 2>, ct::in<ct::bf16, 1>, float);

// A function over tiles, read into the kernel.
template <class T>
T gelu(const T& x) {
  return 0.5f * x * (1.0f + ct::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
}

template <int BM, int BN>
CARBIDE_TILE_KERNEL
void bias_gelu(ct::out<ct::bf16, ct::shape<BM, BN>> y, ct::in<ct::bf16, 2> x, ct::in<float, 1> bias) {
  auto [i, j] = y.coord();
  auto pb = bias.partition(ct::shape<BN>{});
  auto t = ct::cast<float>(ct::load_like(x, y));
  y.store(ct::cast<ct::bf16>(gelu(t + ct::bcast<0>(pb.load(j), t))));
}
template void bias_gelu<4, 256>(ct::out<ct::bf16, ct::shape<4, 256>>, ct::in<ct::bf16, 2>, ct::in<float, 1>);

// A GEMM whose epilogue reads other tiles and reduces the accumulator; the activation an enum.
template <int BM, int BN, int BK, Activation A>
CARBIDE_TILE_KERNEL
void gemm_epilogue(ct::out<ct::bf16, ct::shape<BM, BN>> c,
                   ct::out<float, ct::shape<BM, 1>> row_max,  // NOLINT(carbide-tile-grid): one column a tile of c
                   ct::in<ct::bf16, 2> a, ct::in<ct::bf16, 2> b, ct::in<float, 1> bias, ct::in<ct::bf16, 2> res) {
  auto [bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<BM, BK>{});
  auto pb = b.partition(ct::shape<BK, BN>{});
  auto pbias = bias.partition(ct::shape<BN>{});
  auto acc = ct::zeros<float, ct::shape<BM, BN>>();
  for (int k : ct::irange(pa.tiles(1)))
    acc = ct::mma(pa.load(bm, k), pb.load(k, bn), acc);
  auto x = acc + ct::bcast<0>(pbias.load(bn), acc);
  if constexpr (A == Activation::Gelu) x = gelu(x);
  else x = ct::max(x, 0.0f);
  c.store(ct::cast<ct::bf16>(x + ct::cast<float>(ct::load_like(res, c))));
  row_max.store(ct::reshape<ct::shape<BM, 1>>(ct::reduce_max<1>(acc)));
}
template void gemm_epilogue<128, 128, 32, Activation::Gelu>(ct::out<ct::bf16, ct::shape<128, 128>>, ct::out<float, ct::shape<128, 1>>,
                                                          ct::in<ct::bf16, 2>, ct::in<ct::bf16, 2>, ct::in<float, 1>, ct::in<ct::bf16, 2>);
template void gemm_epilogue<128, 128, 32, Activation::Relu>(ct::out<ct::bf16, ct::shape<128, 128>>, ct::out<float, ct::shape<128, 1>>,
                                                          ct::in<ct::bf16, 2>, ct::in<ct::bf16, 2>, ct::in<float, 1>, ct::in<ct::bf16, 2>);

// Each row's largest element's index, over rows longer than a tile: per-row state through a loop.
template <int BM, int B>
CARBIDE_TILE_KERNEL
void row_argmax(ct::out<int, ct::shape<BM>> where, ct::in<float, 2> x) {
  auto [i] = where.coord();
  auto px = x.partition(ct::shape<BM, B>{});
  auto best = ct::full<float, ct::shape<BM>>(-INFINITY);
  auto at = ct::zeros<int, ct::shape<BM>>();
  for (int k : ct::irange(px.tiles(1))) {
    auto t = px.load(i, k, ct::pad(-INFINITY));
    auto largest = ct::reduce_max<1>(t);
    at = ct::select(largest > best, ct::argmax<1>(t) + k * B, at);
    best = ct::max(best, largest);
  }
  where.store(at);
}
template void row_argmax<4, 512>(ct::out<int, ct::shape<4>>, ct::in<float, 2>);

// One launch for a whole batch of GEMMs.
template <int BM, int BN, int BK>
CARBIDE_TILE_KERNEL
void batched_gemm(ct::out<ct::bf16, ct::shape<1, BM, BN>> c, ct::in<ct::bf16, 3> a, ct::in<ct::bf16, 3> b) {
  auto [z, bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<1, BM, BK>{});
  auto pb = b.partition(ct::shape<1, BK, BN>{});
  auto acc = ct::zeros<float, ct::shape<1, BM, BN>>();
  for (int k : ct::irange(pa.tiles(2)))
    acc = ct::mma(pa.load(z, bm, k), pb.load(z, k, bn), acc);
  c.store(ct::cast<ct::bf16>(acc));
}
template void batched_gemm<128, 128, 32>(ct::out<ct::bf16, ct::shape<1, 128, 128>>, ct::in<ct::bf16, 3>, ct::in<ct::bf16, 3>);

// Q·Kᵀ and a row softmax, the keys past n masked.
template <int BM, int N, int D>
CARBIDE_TILE_KERNEL
void scores_softmax(ct::out<float, ct::shape<BM, N>> p, ct::in<ct::bf16, 2> q, ct::in<ct::bf16, 2> k, float scale) {
  auto [bm, j] = p.coord();
  const int n = k.extent(0);
  auto pq = q.partition(ct::shape<BM, D>{});
  auto pk = k.partition(ct::shape<N, D>{});
  auto s = ct::mma(pq.load(bm, 0), ct::transpose(pk.load(j, 0)), ct::zeros<float, ct::shape<BM, N>>()) * scale;
  s = ct::select(ct::iota<int, ct::shape<BM, N>, 1>() + j * N < n, s, -INFINITY);
  auto e = ct::exp(s - ct::bcast<1>(ct::reduce_max<1>(s), s));
  p.store(e / ct::bcast<1>(ct::reduce_sum<1>(e), e));
}
template void scores_softmax<64, 128, 64>(ct::out<float, ct::shape<64, 128>>, ct::in<ct::bf16, 2>, ct::in<ct::bf16, 2>, float);

// Forward attention (as samples/tile_attention writes it).
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
template void attention<64, 64, 64, true>(ct::out<ct::bf16, ct::shape<1, 64, 64>>, ct::in<ct::bf16, 3>, ct::in<ct::bf16, 3>,
                                          ct::in<ct::bf16, 3>, float);
template void attention<64, 64, 128, false>(ct::out<ct::bf16, ct::shape<1, 64, 128>>, ct::in<ct::bf16, 3>, ct::in<ct::bf16, 3>,
                                            ct::in<ct::bf16, 3>, float);

// The four forms check passed and nvcc refused before: a loaded row spread with bcast<0>, zeros
// in a GEMM epilogue, select between a reduction and a full tile, a reduction stored.
CARBIDE_TILE_KERNEL
void scale_columns(ct::out<float, ct::shape<4, 128>> y, ct::in<float, 2> x, ct::in<float, 1> w) {
  auto [i, j] = y.coord();
  auto pw = w.partition(ct::shape<128>{});
  auto t = ct::load_like(x, y);
  y.store(t * ct::bcast<0>(pw.load(j), t));
}

CARBIDE_TILE_KERNEL
void gemm_relu(ct::out<float, ct::shape<128, 128>> c, ct::in<ct::bf16, 2> a, ct::in<ct::bf16, 2> b) {
  auto [bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<128, 64>{});
  auto pb = b.partition(ct::shape<64, 128>{});
  auto acc = ct::zeros<float, ct::shape<128, 128>>();
  for (int k : ct::irange(pa.tiles(1)))
    acc = ct::mma(pa.load(bm, k), pb.load(k, bn), acc);
  c.store(ct::max(acc, ct::zeros<float, ct::shape<128, 128>>()));
}

CARBIDE_TILE_KERNEL
void shift_rows(ct::out<float, ct::shape<4, 128>> y, ct::in<float, 2> x) {
  auto t = ct::load_like(x, y);
  auto m = ct::reduce_max<1>(t);
  y.store(t - ct::bcast<1>(ct::select(m > 0.0f, m, ct::full<float, ct::shape<4>>(0.0f)), t));
}

CARBIDE_TILE_KERNEL
void row_sums(ct::out<float, ct::shape<4>> y, ct::in<float, 2> x) {
  auto [i] = y.coord();
  auto px = x.partition(ct::shape<4, 128>{});
  y.store(ct::reduce_sum<1>(px.load(i, 0)));
}

// Exchanges through shared memory: column sums (a reduction across rows) spread back with
// bcast<0>, and a transpose stored: y = transpose(x - column means).
CARBIDE_TILE_KERNEL
void centered_transpose(ct::out<float, ct::shape<64, 32>> y, ct::in<float, 2> x) {
  auto [i, j] = y.coord();
  auto px = x.partition(ct::shape<32, 64>{});
  auto t = px.load(j, i);
  auto mean = ct::reduce_sum<0>(t) * (1.0f / 32);
  y.store(ct::transpose(t - ct::bcast<0>(mean, t)));
}

// Exchanges the registers cannot make: row sums of an mma result spread along its columns (a
// vector moved from the rows' layout to the columns'), a reshape that changes the last extent,
// and a reduction and a bcast along a rank-3 tile's middle axis.
CARBIDE_TILE_KERNEL
void exchanges(ct::out<float, ct::shape<64, 64>> y, ct::in<ct::bf16, 2> a, ct::in<float, 2> x) {
  auto [i, j] = y.coord();
  auto pa = a.partition(ct::shape<64, 64>{});
  auto px = x.partition(ct::shape<64, 64>{});
  auto s = ct::mma(pa.load(i, 0), ct::transpose(pa.load(j, 0)), ct::zeros<float, ct::shape<64, 64>>());
  auto wide = ct::reshape<ct::shape<32, 128>>(px.load(i, j));
  y.store(s * ct::bcast<0>(ct::reduce_sum<1>(s), s) + ct::reshape<ct::shape<64, 64>>(wide * 2.0f));
}

CARBIDE_TILE_KERNEL
void middle_axis(ct::out<float, ct::shape<2, 4, 32>> y, ct::in<float, 3> x) {
  auto t = ct::load_like(x, y);
  y.store(t - ct::bcast<1>(ct::reduce_max<1>(t), t));
}

}  // namespace gpu_tile_language
