// The six tile kernels a Tile-DSL user writes first, as they write them: rmsnorm (a weight row
// spread with bcast<0>), bias + GELU through a function over tiles, a GEMM whose epilogue reads a
// bias row and a residual, applies an activation chosen by an enum template parameter with
// if constexpr and stores each row's largest value, a row argmax over rows longer than a tile
// (per-row state through a loop, padding on partition loads), a batched GEMM in one launch, and
// Q·Kᵀ followed by a row softmax (a transposed operand, an iota mask). Each passes check and
// translates for the default targets and for sm_90a; ptxas accepts both.
// RUN: rm -rf %t && %carbide check %s
// RUN: %carbide translate %s -o %t/default
// RUN: %ptxas -arch=sm_90 %t/default/tile-six-kernels.ptx -o %t/default.cubin
// RUN: FileCheck %s < %t/default/tile-six-kernels.carbide.cu
// RUN: %carbide check %s --cuda-arch sm_90a -- -DHOPPER
// RUN: %carbide translate %s -o %t/hopper --cuda-arch sm_90a -- -DHOPPER
// RUN: %ptxas -arch=sm_90a %t/hopper/tile-six-kernels.ptx -o %t/hopper.cubin
// RUN: FileCheck --check-prefix=HOPPER %s < %t/hopper/tile-six-kernels.carbide.cu
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>
#include <algorithm>
namespace ct = carbide::tile;
namespace kernels {

// 1. rmsnorm: a weight row spread over the rows with bcast<0>.
template <int B>
CARBIDE_TILE_KERNEL
void rmsnorm(ct::out<ct::bf16, ct::shape<1, B>> y, ct::in<ct::bf16, 2> x, ct::in<ct::bf16, 1> w, float eps) {
  const int n = x.extent(1);
  auto pw = w.partition(ct::shape<B>{});
  auto t = ct::cast<float>(ct::load_like(x, y));
  auto r = ct::rsqrt(ct::reduce_sum<1>(t * t) / float(n) + eps);
  y.store(ct::cast<ct::bf16>(t * ct::bcast<1>(r, t) * ct::bcast<0>(ct::cast<float>(pw.load(0)), t)));
}

// 2. fused bias + GELU, a helper over tiles.
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

// 3. GEMM with a bias, activation and residual epilogue, and each row's largest value.
enum class Activation { None, Gelu, Relu };
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
  if constexpr (A == Activation::Relu) x = ct::max(x, 0.0f);
  c.store(ct::cast<ct::bf16>(x + ct::cast<float>(ct::load_like(res, c))));
  row_max.store(ct::reshape<ct::shape<BM, 1>>(ct::reduce_max<1>(acc)));
}

// 4. row argmax over rows longer than a tile: per-row state carried through the loop.
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

// 5. batched GEMM: one launch for the whole batch.
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

// 6. QKᵀ followed by a row softmax.
template <int BM, int N, int D>
CARBIDE_TILE_KERNEL
void scores_softmax(ct::out<float, ct::shape<BM, N>> p, ct::in<ct::bf16, 2> q, ct::in<ct::bf16, 2> k, float scale) {
  auto [bm, j] = p.coord();
  const int n = k.extent(0);
  auto pq = q.partition(ct::shape<BM, D>{});
  auto pk = k.partition(ct::shape<N, D>{});
  auto s = ct::mma(pq.load(bm, 0), ct::transpose(pk.load(0, 0)), ct::zeros<float, ct::shape<BM, N>>()) * scale;
  s = ct::select(ct::iota<int, ct::shape<BM, N>, 1>() < n, s, -INFINITY);
  auto e = ct::exp(s - ct::bcast<1>(ct::reduce_max<1>(s), s));
  p.store(e / ct::bcast<1>(ct::reduce_sum<1>(e), e));
}

template void rmsnorm<4096>(ct::out<ct::bf16, ct::shape<1, 4096>>, ct::in<ct::bf16, 2>, ct::in<ct::bf16, 1>, float);
template void bias_gelu<4, 256>(ct::out<ct::bf16, ct::shape<4, 256>>, ct::in<ct::bf16, 2>, ct::in<float, 1>);
template void gemm_epilogue<128, 128, 32, Activation::Gelu>(ct::out<ct::bf16, ct::shape<128, 128>>, ct::out<float, ct::shape<128, 1>>, ct::in<ct::bf16, 2>, ct::in<ct::bf16, 2>, ct::in<float, 1>, ct::in<ct::bf16, 2>);
#ifdef HOPPER
// 128 × 256 × 64: wgmma fed by TMA on sm_90a (its mma.sync stages would not fit sm_86 and sm_89).
template void gemm_epilogue<128, 256, 64, Activation::Relu>(ct::out<ct::bf16, ct::shape<128, 256>>, ct::out<float, ct::shape<128, 1>>, ct::in<ct::bf16, 2>, ct::in<ct::bf16, 2>, ct::in<float, 1>, ct::in<ct::bf16, 2>);
#endif
template void row_argmax<4, 512>(ct::out<int, ct::shape<4>>, ct::in<float, 2>);
template void batched_gemm<128, 128, 32>(ct::out<ct::bf16, ct::shape<1, 128, 128>>, ct::in<ct::bf16, 3>, ct::in<ct::bf16, 3>);
template void scores_softmax<64, 128, 64>(ct::out<float, ct::shape<64, 128>>, ct::in<ct::bf16, 2>, ct::in<ct::bf16, 2>, float);
}

// CHECK-LABEL: // kernels::rmsnorm<4096>: tile kernel
// CHECK: ctd::bcast<0>(ctd::cast<float>(ctd::load<ct::shape<4096>, ctd::cols_of<L0, 1>>(w, {0}, static_cast<carbide::tile::bf16>(0))), t)
// CHECK-LABEL: // kernels::bias_gelu<4, 256>: tile kernel
// CHECK: auto x__gelu1 = (t + ctd::bcast<0>(ctd::load<ct::shape<256>, ctd::cols_of<L0, 4>>(bias, {j}, static_cast<float>(0)), t));
// CHECK: ctd::store(y, y_coord, ctd::cast<carbide::tile::bf16>((((0.5f) * x__gelu1) * ((1.0f) + ctd::tanh(((0.7978845608f) * (x__gelu1 + ((((0.044715f) * x__gelu1) * x__gelu1) * x__gelu1))))))));
// CHECK-LABEL: // kernels::gemm_epilogue<128, 128, 32, static_cast<kernels::Activation>(1)>: tile kernel; the planner chose 128 threads, mma.sync m16n8k16 over 2×2 warps
// CHECK: constexpr int A = 1;
// CHECK: auto x = (acc + ctd::bcast<0>(ctd::load<ct::shape<128>, ctd::cols_of<LA, 0>>(bias, {bn}, static_cast<float>(0)), acc));
// CHECK: auto x__gelu1 = x;
// CHECK: x = (((0.5f) * x__gelu1)
// CHECK: ctd::store(c, c_coord, ctd::cast<carbide::tile::bf16>((x + ctd::cast<float>(ctd::load<ct::shape<128, 128>, LA>(res, c_coord, static_cast<carbide::tile::bf16>(0))))));
// CHECK: ctd::store(row_max, row_max_coord, ctd::reshape<ct::shape<128, 1>, ctd::rows_of<LA, 0>, 0>(ctd::reduce_max<1, 0, false>(acc)));
// CHECK-LABEL: // kernels::row_argmax<4, 512>: tile kernel
// CHECK: auto t = ctd::load<ct::shape<4, 512>, L0>(x, {i, k}, static_cast<float>(-INFINITY));
// CHECK: at = ctd::select((largest > best), (ctd::argmax<1, 1>(t) + (k * B)), at);
// CHECK-LABEL: // kernels::batched_gemm<128, 128, 32>: tile kernel
// CHECK: auto acc = ctd::reshape<ct::shape<1, 128, 128>, LA, 0>(ctd::sm80::gemm_mainloop<P0>(ctd::batch_slice(a, z), ctd::batch_slice(b, z), bm, bn));
// CHECK-LABEL: // kernels::scores_softmax<64, 128, 64>: tile kernel; the planner chose 128 threads, mma.sync m16n8k16 in 4 warps along M
// CHECK: auto s = (ctd::mma<kScratch>(ctd::load<ct::shape<64, 64>, L0>(q, {bm, 0}, static_cast<carbide::tile::bf16>(0)), ctd::read_transposed(ctd::load<ct::shape<128, 64>, L0>(k, {0, 0}, static_cast<carbide::tile::bf16>(0))), ctd::zeros<float, ct::shape<64, 128>, LM>()) * (scale));
// HOPPER: // kernels::gemm_epilogue<128, 256, 64, static_cast<kernels::Activation>(2)>: tile kernel; the planner chose 384 threads, wgmma m64n256k16
// HOPPER: using LA = ctd::sm90::acc<P0>;
// HOPPER: x = ctd::max(x, (0.0f));
