// Experiment, not part of the build: the Tile path's device library (runtime/include/carbide/tile/
// device.hpp) behind kernels written exactly as docs/tile-lowering.md's emitter writes them, each
// measured in one run against a hand-written plain-CUDA twin, a device-to-device copy of the same
// bytes, and (GEMM) the hand-written mma.sync anchor and cublasGemmEx.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I runtime/include bench/experiments/tile_library.cu -lcublas -o t && ./t
//   ./t --check   correctness only, small sizes (for compute-sanitizer memcheck / racecheck)
//   ./t --layernorm   correctness, then the layernorm group only
//   ./t --gemm        correctness, then the GEMM groups only
// Kernels: c = a + b (f32 1-D, bf16 2-D), softmax along rows (f32, 1024 columns), layernorm along
// rows (bf16 in and out, f32 statistics, gamma and beta), bf16 GEMM (f32 accumulation). Several
// plans (threads, vector width, rows a block, GEMM warps and stages) of each, so that the
// results say which the planner should choose. Correctness against float64 CPU references, odd
// sizes with masked edges (ragged tiles, unaligned tensors) included; outputs poisoned first, and
// guard elements around unaligned outputs must stay untouched. Timing: every kernel of a group
// warmed up, then interleaved rounds that time each once (cudaEvent, one launch), medians.

// The anchor GEMM (its kernels, Problem, run_cublas, compare), its main renamed out of the way.
#define main mma_sync_gemm_main
#include "mma_sync_gemm.cu"
#undef main

#include <carbide/tile/device.hpp>

#include <array>
#include <string>

namespace ct = carbide::tile;

// ---------------------------------------------------------------------------------------------
// Tile kernels, in the emitted form. Each macro stamps out what the emitter writes for one
// instantiation and one plan (an extern "C" entry cannot be a template).

// template <int... S> CARBIDE_TILE_KERNEL void add(ct::out<T, ct::shape<S...>> c, ct::in<T, R> a, ct::in<T, R> b) {
//   c.store(ct::load_like(a, c) + ct::load_like(b, c));
// }
#define TILE_ADD(NAME, BOUNDS, T, RANK, THREADS, VEC, ...)                                                \
  extern "C" __global__ void __launch_bounds__ BOUNDS                                           \
      NAME(::carbide::tile::detail::out_arg<T, RANK> c, ::carbide::tile::detail::in_arg<T, RANK> a,          \
           ::carbide::tile::detail::in_arg<T, RANK> b) {                                                      \
    namespace ctd = ::carbide::tile::detail;                                                                  \
    using L0 = ctd::blocked<THREADS, VEC>;                                                                    \
    const auto c_coord = ctd::block_coord(c);                                                                 \
    ctd::store(c, c_coord,                                                                                    \
               ctd::load<ct::shape<__VA_ARGS__>, L0>(a, c_coord, 0) + ctd::load<ct::shape<__VA_ARGS__>, L0>(b, c_coord, 0)); \
  }
TILE_ADD(tile_add_f32_4096_t256, (256), float, 1, 256, 4, 4096)
TILE_ADD(tile_add_f32_2048_t256, (256), float, 1, 256, 4, 2048)
TILE_ADD(tile_add_f32_8192_t256, (256), float, 1, 256, 4, 8192)
TILE_ADD(tile_add_f32_4096_t128, (128), float, 1, 128, 4, 4096)
TILE_ADD(tile_add_f32_1024_t256, (256), float, 1, 256, 4, 1024)
TILE_ADD(tile_add_f32_4096_t256_b8, (256, 8), float, 1, 256, 4, 4096)
TILE_ADD(tile_add_bf16_8x512_t256, (256), ::carbide::tile::bf16, 2, 256, 8, 8, 512)
TILE_ADD(tile_add_bf16_16x512_t256, (256), ::carbide::tile::bf16, 2, 256, 8, 16, 512)
TILE_ADD(tile_add_bf16_4x512_t256, (256), ::carbide::tile::bf16, 2, 256, 8, 4, 512)
TILE_ADD(tile_add_bf16_8x512_t128, (128), ::carbide::tile::bf16, 2, 128, 8, 8, 512)

// docs/tile-lowering.md's softmax_rows<B>, rows R a block:
//   auto t = ct::load_like(x, y, ct::pad(-INFINITY));
//   auto e = ct::exp(t - ct::bcast<1>(ct::reduce_max<1>(t), t));
//   y.store(e / ct::bcast<1>(ct::reduce_sum<1>(e), e));
#define TILE_SOFTMAX(NAME, BOUNDS, THREADS, VEC, ...)                                              \
  extern "C" __global__ void __launch_bounds__ BOUNDS                                    \
      NAME(::carbide::tile::detail::out_arg<float, 2> y, ::carbide::tile::detail::in_arg<float, 2> x) { \
    namespace ctd = ::carbide::tile::detail;                                                           \
    using L0 = ctd::blocked<THREADS, VEC>;                                                             \
    const auto y_coord = ctd::block_coord(y);                                                          \
    auto t = ctd::load<ct::shape<__VA_ARGS__>, L0>(x, y_coord, -INFINITY);                             \
    auto e = ctd::exp(t - ctd::bcast<1>(ctd::reduce_max<1, 0>(t), t));                                 \
    ctd::store(y, y_coord, e / ctd::bcast<1>(ctd::reduce_sum<1, 1>(e), e));                            \
  }
TILE_SOFTMAX(tile_softmax_1x1024_t256, (256), 256, 4, 1, 1024)
TILE_SOFTMAX(tile_softmax_1x1024_t128, (128), 128, 4, 1, 1024)
TILE_SOFTMAX(tile_softmax_1x1024_t64, (64), 64, 4, 1, 1024)
TILE_SOFTMAX(tile_softmax_1x1024_t32, (32), 32, 4, 1, 1024)
TILE_SOFTMAX(tile_softmax_2x1024_t64, (64), 64, 4, 2, 1024)
TILE_SOFTMAX(tile_softmax_4x1024_t256, (256), 256, 4, 4, 1024)
TILE_SOFTMAX(tile_softmax_8x1024_t256, (256), 256, 4, 8, 1024)

// The signature every layernorm variant below shares: y = layernorm(x) · gamma + beta, bf16.
#define LAYERNORM_ENTRY(NAME, BOUNDS)                                                                           \
  extern "C" __global__ void __launch_bounds__ BOUNDS NAME(                                                    \
      ::carbide::tile::detail::out_arg<::carbide::tile::bf16, 2> y, ::carbide::tile::detail::in_arg<::carbide::tile::bf16, 2> x, \
      ::carbide::tile::detail::in_arg<::carbide::tile::bf16, 2> gamma,                                          \
      ::carbide::tile::detail::in_arg<::carbide::tile::bf16, 2> beta, float eps)

// template <int N> layernorm_rows(ct::out<ct::bf16, ct::shape<1, N>> y, ct::in<ct::bf16, 2> x,
//                                 ct::in<ct::bf16, 2> gamma, ct::in<ct::bf16, 2> beta, float eps) {
//   auto t = ct::cast<float>(ct::load_like(x, y));
//   auto mean = ct::reduce_sum<1>(t) / float(N);
//   auto d = t - ct::bcast<1>(mean, t);
//   auto var = ct::reduce_sum<1>(d * d) / float(N);
//   auto g = ct::cast<float>(gamma.partition(ct::shape<1, N>{}).load(0, 0));
//   auto b = ct::cast<float>(beta.partition(ct::shape<1, N>{}).load(0, 0));
//   y.store(ct::cast<ct::bf16>(d * ct::bcast<1>(ct::rsqrt(var + eps), d) * g + b));
// }
#define TILE_LAYERNORM(NAME, BOUNDS, THREADS, VEC, N)                                                      \
  LAYERNORM_ENTRY(NAME, BOUNDS) {                                                                        \
    namespace ctd = ::carbide::tile::detail;                                                                   \
    using L0 = ctd::blocked<THREADS, VEC>;                                                                     \
    const auto y_coord = ctd::block_coord(y);                                                                  \
    auto t = ctd::cast<float>(ctd::load<ct::shape<1, N>, L0>(x, y_coord, 0));                                 \
    auto mean = ctd::reduce_sum<1, 0>(t) / float(N);                                                           \
    auto d = t - ctd::bcast<1>(mean, t);                                                                       \
    auto var = ctd::reduce_sum<1, 1>(d * d) / float(N);                                                        \
    auto g = ctd::cast<float>(ctd::load<ct::shape<1, N>, L0>(gamma, {0, 0}, 0));                               \
    auto b = ctd::cast<float>(ctd::load<ct::shape<1, N>, L0>(beta, {0, 0}, 0));                                \
    ctd::store(y, y_coord, ctd::cast<ct::bf16>(d * ctd::bcast<1>(ctd::rsqrt(var + eps), d) * g + b));          \
  }
// The same with the two parameter loads placed first (a reordering the emitter may make: loads of
// inputs have no dependences), so that their latency overlaps the statistics.
#define TILE_LAYERNORM_LOADS_FIRST(NAME, BOUNDS, THREADS, VEC, N)                                          \
  LAYERNORM_ENTRY(NAME, BOUNDS) {                                                                        \
    namespace ctd = ::carbide::tile::detail;                                                                 \
    using L0 = ctd::blocked<THREADS, VEC>;                                                                   \
    const auto y_coord = ctd::block_coord(y);                                                                \
    auto t = ctd::cast<float>(ctd::load<ct::shape<1, N>, L0>(x, y_coord, 0));                               \
    auto g = ctd::cast<float>(ctd::load<ct::shape<1, N>, L0>(gamma, {0, 0}, 0));                             \
    auto b = ctd::cast<float>(ctd::load<ct::shape<1, N>, L0>(beta, {0, 0}, 0));                              \
    auto mean = ctd::reduce_sum<1, 0>(t) / float(N);                                                         \
    auto d = t - ctd::bcast<1>(mean, t);                                                                     \
    auto var = ctd::reduce_sum<1, 1>(d * d) / float(N);                                                      \
    ctd::store(y, y_coord, ctd::cast<ct::bf16>(d * ctd::bcast<1>(ctd::rsqrt(var + eps), d) * g + b));        \
  }
// samples/tile_layernorm as the emitter writes it (2026-12-04): the row's length n at run time,
// the padding masked out of the variance with iota and select, gamma and beta loaded last.
#define TILE_LAYERNORM_SAMPLE(NAME, BOUNDS, THREADS, VEC, N)                                                   \
  LAYERNORM_ENTRY(NAME, BOUNDS) {                                                                        \
    namespace ctd = ::carbide::tile::detail;                                                                 \
    using L0 = ctd::blocked<THREADS, VEC>;                                                                   \
    const auto y_coord = ctd::block_coord(y);                                                                \
    const int n = x.extent[1];                                                                               \
    auto t = ctd::cast<float>(ctd::load<ct::shape<1, N>, L0>(x, y_coord, static_cast<ct::bf16>(0)));         \
    auto mean = (ctd::reduce_sum<1, 0, false>(t) * (1.0f / n));                                              \
    auto inside = (ctd::iota<int, ct::shape<1, N>, L0>() < (n));                                             \
    auto d = ctd::select(inside, (t - ctd::bcast<1>(mean, t)), ctd::zeros<float, ct::shape<1, N>, L0>());   \
    auto inverse = ctd::rsqrt(((ctd::reduce_sum<1, 1, false>((d * d)) * (1.0f / n)) + (eps)));               \
    auto scaled = (d * ctd::bcast<1>(inverse, d));                                                           \
    ctd::store(y, y_coord,                                                                                   \
               ctd::cast<ct::bf16>(((scaled * ctd::cast<float>(ctd::load<ct::shape<1, N>, L0>(gamma, {0, 0},   \
                                                                                static_cast<ct::bf16>(0)))) + \
                                    ctd::cast<float>(ctd::load<ct::shape<1, N>, L0>(beta, {0, 0}, static_cast<ct::bf16>(0))))));  \
  }
// Probes (2026-12-04, session 11): the sample form with one difference from the emitter at a time
// removed, to find what costs the 0.87 of the twin at equal occupancy.
//   COORD: ctd::block_coord(y) (two run-time divisions before the first load) or {blockIdx.x, 0};
//   LOAD/STORE: the library's (both paths: whole tile and masked edge) or only the whole path;
//   MASKED: the padding masked with iota < n (true) or not (false).
namespace probe {
namespace ctd = ::carbide::tile::detail;
// The library's whole-tile path alone: what load/store run when the tile is whole and aligned.
template <class Shape, class Layout, bool Plain = false, class T, int Rank, class Pad>
__device__ ctd::frag<T, Shape, Layout> load_whole(const ctd::in_arg<T, Rank>& in, const ctd::tile_coord<Rank>& tile, Pad) {
  using L = ctd::layout_of<Shape, Layout>;
  const ctd::tile_window<Shape, ctd::in_arg<T, Rank>, Rank> window{in, tile};
  const T* origin = in.data + window.origin();
  const unsigned thread = threadIdx.x;
  ctd::frag<T, Shape, Layout> f;
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s) {
    bool inside;
    const std::int64_t row = window.row_offset(ctd::chunk_row<L>(s, thread), inside);
    const T* from = origin + row + ctd::chunk_column<L>(s, thread);
    if constexpr (Plain) {
      const uint4 bits = *reinterpret_cast<const uint4*>(from);
      std::memcpy(&f.v[s * L::kVec], &bits, 16);
    } else {
      ctd::load_chunk<T, L::kVec>(&f.v[s * L::kVec], from);
    }
  }
  return f;
}
template <class Shape, class Layout, class T, int Rank, class Pad>
__device__ ctd::frag<T, Shape, Layout> load_plain(const ctd::in_arg<T, Rank>& in, const ctd::tile_coord<Rank>& tile, Pad pad) {
  return load_whole<Shape, Layout, true>(in, tile, pad);
}
template <class T, int Rank, class Shape, int Threads, int Vec>
__device__ void store_whole(const ctd::out_arg<T, Rank>& out, const ctd::tile_coord<Rank>& tile,
                            const ctd::frag<T, Shape, ctd::blocked<Threads, Vec>>& f) {
  using L = ctd::layout_of<Shape, ctd::blocked<Threads, Vec>>;
  const ctd::tile_window<Shape, ctd::out_arg<T, Rank>, Rank> window{out, tile};
  T* origin = out.data + window.origin();
  const unsigned thread = threadIdx.x;
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s) {
    bool inside;
    const std::int64_t row = window.row_offset(ctd::chunk_row<L>(s, thread), inside);
    ctd::store_chunk<T, Vec>(origin + row + ctd::chunk_column<L>(s, thread), &f.v[s * Vec]);
  }
}
__device__ ctd::tile_coord<2> row_coord() { return {{int(blockIdx.x), 0}}; }
// The test the split variants choose their body by: the tile wholly inside its tensor, aligned.
template <class Shape, class Arg, int Rank>
__device__ bool whole(const Arg& arg, const ctd::tile_coord<Rank>& tile) {
  return ctd::tile_window<Shape, Arg, Rank>{arg, tile}.whole_and_aligned();
}
template <bool Whole>
__device__ __forceinline__ void body(ctd::out_arg<ct::bf16, 2> y, ctd::in_arg<ct::bf16, 2> x, ctd::in_arg<ct::bf16, 2> gamma,
                                           ctd::in_arg<ct::bf16, 2> beta, float eps, ctd::tile_coord<2> y_coord) {
  using L0 = ctd::blocked<256, 8>;
  using S = ct::shape<1, 4096>;
  const ctd::tile_coord<2> origin{{0, 0}};
  auto load = [&](const ctd::in_arg<ct::bf16, 2>& in, const ctd::tile_coord<2>& at) {
    if constexpr (Whole) return ctd::load_whole<S, L0>(in, at);
    else return ctd::load<S, L0>(in, at, static_cast<ct::bf16>(0));
  };
  const int n = x.extent[1];
  auto t = ctd::cast<float>(load(x, y_coord));
  auto mean = (ctd::reduce_sum<1, 0, false>(t) * (1.0f / n));
  auto d = ctd::select(ctd::iota<int, S, L0>() < (n), t - ctd::bcast<1>(mean, t), ctd::zeros<float, S, L0>());
  auto inverse = ctd::rsqrt(((ctd::reduce_sum<1, 1, false>((d * d)) * (1.0f / n)) + (eps)));
  auto scaled = (d * ctd::bcast<1>(inverse, d));
  auto out = ctd::cast<ct::bf16>(((scaled * ctd::cast<float>(load(gamma, origin))) + ctd::cast<float>(load(beta, origin))));
  if constexpr (Whole) ctd::store_whole(y, y_coord, out);
  else ctd::store(y, y_coord, out);
}
#define PROBE_BODY_PARAMS                                                                                    \
  ctd::out_arg<ct::bf16, 2> y, ctd::in_arg<ct::bf16, 2> x, ctd::in_arg<ct::bf16, 2> gamma,                   \
      ctd::in_arg<ct::bf16, 2> beta, float eps, ctd::tile_coord<2> y_coord
__device__ __forceinline__ void whole_body(PROBE_BODY_PARAMS) { body<true>(y, x, gamma, beta, eps, y_coord); }
__device__ __forceinline__ void edge_inline(PROBE_BODY_PARAMS) { body<false>(y, x, gamma, beta, eps, y_coord); }
// The edge body in a function of its own, not inlined: its registers are allocated apart from
// the whole-tile body's, and only the blocks on an edge pay the call.
__device__ __noinline__ void edge_body(PROBE_BODY_PARAMS) { body<false>(y, x, gamma, beta, eps, y_coord); }
// The whole-tile body once more for an output one tile wide (a row kernel's usual grid): the
// column coordinate then is the constant 0, not a run-time value.
__device__ __forceinline__ void whole_rows_body(PROBE_BODY_PARAMS) {
  if (y.tiles[1] == 1) body<true>(y, x, gamma, beta, eps, ctd::tile_coord<2>{{int(blockIdx.x), 0}});
  else body<true>(y, x, gamma, beta, eps, y_coord);
}
}  // namespace probe
#define TILE_LAYERNORM_PROBE(NAME, BOUNDS, COORD, LOAD, STORE, MASKED)                                         \
  LAYERNORM_ENTRY(NAME, BOUNDS) {                                                                        \
    namespace ctd = ::carbide::tile::detail;                                                                 \
    using L0 = ctd::blocked<256, 8>;                                                                         \
    using S = ct::shape<1, 4096>;                                                                            \
    const auto y_coord = COORD;                                                                              \
    const int n = x.extent[1];                                                                               \
    auto t = ctd::cast<float>(LOAD<S, L0>(x, y_coord, static_cast<ct::bf16>(0)));                            \
    auto mean = (ctd::reduce_sum<1, 0, false>(t) * (1.0f / n));                                              \
    auto centred = t - ctd::bcast<1>(mean, t);                                                               \
    auto d = MASKED ? ctd::select(ctd::iota<int, S, L0>() < (n), centred, ctd::zeros<float, S, L0>()) : centred; \
    auto inverse = ctd::rsqrt(((ctd::reduce_sum<1, 1, false>((d * d)) * (1.0f / n)) + (eps)));               \
    auto scaled = (d * ctd::bcast<1>(inverse, d));                                                           \
    STORE(y, y_coord,                                                                                        \
          ctd::cast<ct::bf16>(((scaled * ctd::cast<float>(LOAD<S, L0>(gamma, {0, 0}, static_cast<ct::bf16>(0)))) + \
                               ctd::cast<float>(LOAD<S, L0>(beta, {0, 0}, static_cast<ct::bf16>(0))))));            \
  }
TILE_LAYERNORM_PROBE(probe_whole_b6, (256, 6), ctd::block_coord(y), probe::load_whole, probe::store_whole, true)
// The two-body form the emitter wrote for a while in session 11 (measured, then reverted): the
// body for blocks whose tiles are all whole (WHOLE) and for the others (EDGE), chosen once per
// block; WHOLE and EDGE are probe:: functions of (y, x, gamma, beta, eps, y_coord).
#define TILE_LAYERNORM_SPLIT(NAME, BOUNDS, WHOLE, EDGE)                                                       \
  LAYERNORM_ENTRY(NAME, BOUNDS) {                                                                        \
    namespace ctd = ::carbide::tile::detail;                                                                 \
    using S = ct::shape<1, 4096>;                                                                            \
    const auto y_coord = ctd::block_coord(y);                                                                \
    const ctd::tile_coord<2> origin{{0, 0}};                                                                 \
    if (probe::whole<S>(y, y_coord) && probe::whole<S>(x, y_coord) && probe::whole<S>(gamma, origin) &&     \
        probe::whole<S>(beta, origin))                                                                       \
      probe::WHOLE(y, x, gamma, beta, eps, y_coord);                                                         \
    else                                                                                                     \
      probe::EDGE(y, x, gamma, beta, eps, y_coord);                                                          \
  }
// Steps (2026-12-04, session 12) from the fast probe (row coordinate, whole path only) toward the
// split form, one piece at a time: the library's load_whole (S1), block_coord instead of the row
// coordinate (S2), the four whole_and_aligned tests before the body with no edge body (S3, S3b).
namespace probe {
template <class Shape, class Layout, class T, int Rank, class Pad>
__device__ ctd::frag<T, Shape, Layout> lib_load_whole(const ctd::in_arg<T, Rank>& in, const ctd::tile_coord<Rank>& tile, Pad) {
  return ctd::load_whole<Shape, Layout>(in, tile);
}
}  // namespace probe
#define TILE_LAYERNORM_TESTED(NAME, BOUNDS, COORD)                                                            \
  LAYERNORM_ENTRY(NAME, BOUNDS) {                                                                        \
    namespace ctd = ::carbide::tile::detail;                                                                 \
    using S = ct::shape<1, 4096>;                                                                            \
    const auto y_coord = COORD;                                                                              \
    const ctd::tile_coord<2> origin{{0, 0}};                                                                 \
    if (probe::whole<S>(y, y_coord) && probe::whole<S>(x, y_coord) && probe::whole<S>(gamma, origin) &&     \
        probe::whole<S>(beta, origin))                                                                       \
      probe::whole_body(y, x, gamma, beta, eps, y_coord);                                                    \
  }
TILE_LAYERNORM_PROBE(step1_lib_whole, (256, 6), probe::row_coord(), probe::lib_load_whole, ctd::store_whole, true)
TILE_LAYERNORM_PROBE(step2_lib_whole_block_coord, (256, 6), ctd::block_coord(y), probe::lib_load_whole, ctd::store_whole, true)
TILE_LAYERNORM_TESTED(step3_tested_row_coord, (256, 6), probe::row_coord())
TILE_LAYERNORM_TESTED(step3b_tested_block_coord, (256, 6), ctd::block_coord(y))
TILE_LAYERNORM_SPLIT(split_call_b6, (256, 6), whole_body, edge_body)
TILE_LAYERNORM_SPLIT(split_call_b5, (256, 5), whole_body, edge_body)
TILE_LAYERNORM_SPLIT(split_call_free, (256), whole_body, edge_body)
TILE_LAYERNORM_SPLIT(split_rows_b6, (256, 6), whole_rows_body, edge_inline)
TILE_LAYERNORM_SPLIT(split_b6, (256, 6), whole_body, edge_inline)
TILE_LAYERNORM_SPLIT(split_b5, (256, 5), whole_body, edge_inline)
TILE_LAYERNORM_PROBE(probe_coord_b8, (256, 8), probe::row_coord(), ctd::load, ctd::store, true)
TILE_LAYERNORM_PROBE(probe_coord_b6, (256, 6), probe::row_coord(), ctd::load, ctd::store, true)
TILE_LAYERNORM_PROBE(probe_coord_whole_b8, (256, 8), probe::row_coord(), probe::load_whole, probe::store_whole, true)
TILE_LAYERNORM_PROBE(probe_coord_whole_b6, (256, 6), probe::row_coord(), probe::load_whole, probe::store_whole, true)
TILE_LAYERNORM_PROBE(probe_coord_whole_nomask_b8, (256, 8), probe::row_coord(), probe::load_whole, probe::store_whole, false)
TILE_LAYERNORM_PROBE(probe_coord_whole_nomask_b6, (256, 6), probe::row_coord(), probe::load_whole, probe::store_whole, false)
TILE_LAYERNORM_PROBE(probe_coord_plain_nomask_b6, (256, 6), probe::row_coord(), probe::load_plain, probe::store_whole, false)
TILE_LAYERNORM_PROBE(probe_whole_b8, (256, 8), ctd::block_coord(y), probe::load_whole, probe::store_whole, true)
TILE_LAYERNORM_PROBE(probe_nomask_b8, (256, 8), ctd::block_coord(y), ctd::load, ctd::store, false)
TILE_LAYERNORM_SAMPLE(tile_layernorm_sample_b5, (256, 5), 256, 8, 4096)
TILE_LAYERNORM_SAMPLE(tile_layernorm_sample_b6, (256, 6), 256, 8, 4096)
TILE_LAYERNORM_SAMPLE(tile_layernorm_sample_b8, (256, 8), 256, 8, 4096)
TILE_LAYERNORM_SAMPLE(tile_layernorm_sample_b7, (256, 7), 256, 8, 4096)
TILE_LAYERNORM(tile_layernorm_4096_t256_b6, (256, 6), 256, 8, 4096)
TILE_LAYERNORM_LOADS_FIRST(tile_layernorm_first_4096_t256, (256), 256, 8, 4096)
TILE_LAYERNORM(tile_layernorm_4096_t256, (256), 256, 8, 4096)
TILE_LAYERNORM(tile_layernorm_4096_t256_b5, (256, 5), 256, 8, 4096)

// DESIGN §10's gemm<BM, BN, BK>, with the plan the planner chose:
//   auto [bm, bn] = c.coord(); ... acc = mma-loop ...; c.store(ct::cast<ct::bf16>(acc));
#define TILE_GEMM(NAME, THREADS, BM, BN, BK, WM, WN, STAGES)                                                   \
  extern "C" __global__ void __launch_bounds__(THREADS)                                                        \
      NAME(::carbide::tile::detail::out_arg<::carbide::tile::bf16, 2> c,                                      \
           ::carbide::tile::detail::in_arg<::carbide::tile::bf16, 2> a,                                        \
           ::carbide::tile::detail::in_arg<::carbide::tile::bf16, 2> b) {                                      \
    namespace ctd = ::carbide::tile::detail;                                                                   \
    using P0 = ctd::sm80::gemm_plan<ct::bf16, BM, BN, BK, /*warps*/ WM, WN, /*stages*/ STAGES>;                \
    const auto c_coord = ctd::gemm_block_coord<P0>(c);                                                        \
    const int bm = c_coord[0], bn = c_coord[1];                                                                \
    auto acc = ctd::sm80::gemm_mainloop<P0>(a, b, bm, bn);                                                     \
    ctd::store(c, c_coord, ctd::cast<ct::bf16>(acc));                                                          \
  }
TILE_GEMM(tile_gemm_128x128x64_w2x2_s3, 128, 128, 128, 64, 2, 2, 3)
TILE_GEMM(tile_gemm_128x128x64_w2x2_s4, 128, 128, 128, 64, 2, 2, 4)
TILE_GEMM(tile_gemm_128x128x64_w2x4_s3, 256, 128, 128, 64, 2, 4, 3)
TILE_GEMM(tile_gemm_128x256x64_w2x4_s3, 256, 128, 256, 64, 2, 4, 3)
TILE_GEMM(tile_gemm_128x256x64_w2x4_s4, 256, 128, 256, 64, 2, 4, 4)
// The 128×256×64 plan with other rasterization groups (session 12: is the 8192³ ratio to cuBLAS,
// 0.594 with groups of 8 block rows, an L2 or DRAM matter?).
template <int GroupM>
struct grouped_plan : ::carbide::tile::detail::sm80::gemm_plan<::carbide::tile::bf16, 128, 256, 64, 2, 4, 3> {
  static constexpr int kGroupM = GroupM;
};
#define TILE_GEMM_GROUPED(NAME, GROUP)                                                                       \
  extern "C" __global__ void __launch_bounds__(256)                                                          \
      NAME(::carbide::tile::detail::out_arg<::carbide::tile::bf16, 2> c,                                     \
           ::carbide::tile::detail::in_arg<::carbide::tile::bf16, 2> a,                                      \
           ::carbide::tile::detail::in_arg<::carbide::tile::bf16, 2> b) {                                    \
    namespace ctd = ::carbide::tile::detail;                                                                 \
    using P0 = grouped_plan<GROUP>;                                                                          \
    const auto c_coord = ctd::gemm_block_coord<P0>(c);                                                      \
    auto acc = ctd::sm80::gemm_mainloop<P0>(a, b, c_coord[0], c_coord[1]);                                   \
    ctd::store(c, c_coord, ctd::cast<ct::bf16>(acc));                                                        \
  }
TILE_GEMM_GROUPED(tile_gemm_group4, 4)
TILE_GEMM_GROUPED(tile_gemm_group16, 16)
TILE_GEMM_GROUPED(tile_gemm_group32, 32)

// ---------------------------------------------------------------------------------------------
// Hand-written twins: the fast plain-CUDA form of each.

namespace twin {

constexpr int kAddThreads = 256, kAddVectors = 4;  // 4 float4 (or 4 × 8 bf16) a thread, 16 B each

__global__ void __launch_bounds__(kAddThreads) add_f32(float* c, const float* a, const float* b, std::int64_t n) {
  const std::int64_t base = std::int64_t(blockIdx.x) * kAddThreads * kAddVectors * 4;
  if (base + kAddThreads * kAddVectors * 4 <= n) {
    float4 x[kAddVectors], y[kAddVectors];
#pragma unroll
    for (int i = 0; i < kAddVectors; ++i) {
      const std::int64_t at = base + (i * kAddThreads + threadIdx.x) * 4;
      x[i] = *reinterpret_cast<const float4*>(a + at), y[i] = *reinterpret_cast<const float4*>(b + at);
    }
#pragma unroll
    for (int i = 0; i < kAddVectors; ++i) {
      const std::int64_t at = base + (i * kAddThreads + threadIdx.x) * 4;
      *reinterpret_cast<float4*>(c + at) = make_float4(x[i].x + y[i].x, x[i].y + y[i].y, x[i].z + y[i].z, x[i].w + y[i].w);
    }
  } else {
    for (std::int64_t at = base + threadIdx.x; at < n; at += kAddThreads) c[at] = a[at] + b[at];
  }
}

__device__ __forceinline__ uint4 add_bf16x8(uint4 x, uint4 y) {
  uint4 r;
  const __nv_bfloat162* xs = reinterpret_cast<const __nv_bfloat162*>(&x);
  const __nv_bfloat162* ys = reinterpret_cast<const __nv_bfloat162*>(&y);
  __nv_bfloat162* rs = reinterpret_cast<__nv_bfloat162*>(&r);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const float2 p = __bfloat1622float2(xs[i]), q = __bfloat1622float2(ys[i]);
    rs[i] = __floats2bfloat162_rn(p.x + q.x, p.y + q.y);
  }
  return r;
}

__global__ void __launch_bounds__(kAddThreads) add_bf16(bf16* c, const bf16* a, const bf16* b, std::int64_t n) {
  const std::int64_t base = std::int64_t(blockIdx.x) * kAddThreads * kAddVectors * 8;
  if (base + kAddThreads * kAddVectors * 8 <= n) {
    uint4 x[kAddVectors], y[kAddVectors];
#pragma unroll
    for (int i = 0; i < kAddVectors; ++i) {
      const std::int64_t at = base + (i * kAddThreads + threadIdx.x) * 8;
      x[i] = *reinterpret_cast<const uint4*>(a + at), y[i] = *reinterpret_cast<const uint4*>(b + at);
    }
#pragma unroll
    for (int i = 0; i < kAddVectors; ++i)
      *reinterpret_cast<uint4*>(c + base + (i * kAddThreads + threadIdx.x) * 8) = add_bf16x8(x[i], y[i]);
  } else {
    for (std::int64_t at = base + threadIdx.x; at < n; at += kAddThreads)
      c[at] = __float2bfloat16_rn(__bfloat162float(a[at]) + __bfloat162float(b[at]));
  }
}

// Softmax of 1024-float rows, a warp a row (8 float4 a lane, in registers), 8 rows a block.
constexpr int kSoftmaxColumns = 1024, kSoftmaxRowsPerBlock = 8;
__global__ void __launch_bounds__(256) softmax_1024(float* y, const float* x, int rows) {
  const int row = blockIdx.x * kSoftmaxRowsPerBlock + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float* in = x + std::int64_t(row) * kSoftmaxColumns;
  float4 v[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) v[i] = *reinterpret_cast<const float4*>(in + (i * 32 + lane) * 4);
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < 8; ++i) m = fmaxf(m, fmaxf(fmaxf(v[i].x, v[i].y), fmaxf(v[i].z, v[i].w)));
#pragma unroll
  for (int d = 16; d > 0; d /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, d));
  float s = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    v[i] = make_float4(expf(v[i].x - m), expf(v[i].y - m), expf(v[i].z - m), expf(v[i].w - m));
    s += v[i].x + v[i].y + v[i].z + v[i].w;
  }
#pragma unroll
  for (int d = 16; d > 0; d /= 2) s += __shfl_xor_sync(0xffffffffu, s, d);
  float* out = y + std::int64_t(row) * kSoftmaxColumns;
#pragma unroll
  for (int i = 0; i < 8; ++i)
    *reinterpret_cast<float4*>(out + (i * 32 + lane) * 4) = make_float4(v[i].x / s, v[i].y / s, v[i].z / s, v[i].w / s);
}

// Layernorm of 4096-element bf16 rows, a block a row: each thread one or more 16-byte vectors,
// two-pass statistics in f32 (mean, then the mean of squared deviations), warp shuffles and one
// shared array of the warps' partials.
constexpr int kLayernormColumns = 4096;
template <int kThreads>
__device__ __forceinline__ float block_sum(float v, float* partials) {
#pragma unroll
  for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
  __syncthreads();  // the previous use of partials is read
  if (threadIdx.x % 32 == 0) partials[threadIdx.x / 32] = v;
  __syncthreads();
  float total = 0;
#pragma unroll
  for (int w = 0; w < kThreads / 32; ++w) total += partials[w];
  return total;
}
template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    layernorm_4096(bf16* y, const bf16* x, const bf16* gamma, const bf16* beta, float eps) {
  constexpr int kVectors = kLayernormColumns / 8 / kThreads;
  __shared__ float partials[kThreads / 32];
  const bf16* in = x + std::int64_t(blockIdx.x) * kLayernormColumns;
  float v[kVectors][8];
#pragma unroll
  for (int i = 0; i < kVectors; ++i) {
    const uint4 raw = *reinterpret_cast<const uint4*>(in + (i * kThreads + threadIdx.x) * 8);
    const __nv_bfloat162* pairs = reinterpret_cast<const __nv_bfloat162*>(&raw);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const float2 f = __bfloat1622float2(pairs[j]);
      v[i][2 * j] = f.x, v[i][2 * j + 1] = f.y;
    }
  }
  float s = 0;
#pragma unroll
  for (int i = 0; i < kVectors; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) s += v[i][j];
  const float mean = block_sum<kThreads>(s, partials) / kLayernormColumns;
  float q = 0;
#pragma unroll
  for (int i = 0; i < kVectors; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) v[i][j] -= mean, q += v[i][j] * v[i][j];
  const float rstd = rsqrtf(block_sum<kThreads>(q, partials) / kLayernormColumns + eps);
  bf16* out = y + std::int64_t(blockIdx.x) * kLayernormColumns;
#pragma unroll
  for (int i = 0; i < kVectors; ++i) {
    const int column = (i * kThreads + threadIdx.x) * 8;
    const uint4 graw = *reinterpret_cast<const uint4*>(gamma + column), braw = *reinterpret_cast<const uint4*>(beta + column);
    const __nv_bfloat162* gs = reinterpret_cast<const __nv_bfloat162*>(&graw);
    const __nv_bfloat162* bs = reinterpret_cast<const __nv_bfloat162*>(&braw);
    uint4 r;
    __nv_bfloat162* rs = reinterpret_cast<__nv_bfloat162*>(&r);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const float2 g = __bfloat1622float2(gs[j]), b = __bfloat1622float2(bs[j]);
      rs[j] = __floats2bfloat162_rn(v[i][2 * j] * rstd * g.x + b.x, v[i][2 * j + 1] * rstd * g.y + b.y);
    }
    *reinterpret_cast<uint4*>(out + column) = r;
  }
}

}  // namespace twin

// ---------------------------------------------------------------------------------------------
// Host side: argument structs as the stub fills them, data, references, timing.

namespace {

namespace ctd = carbide::tile::detail;

template <class T, int R>
bool aligned16(const T* p, const std::array<std::int64_t, R>& extent) {
  bool ok = reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
  std::int64_t stride = 1;
  for (int axis = R - 1; axis > 0; --axis) {
    stride *= extent[axis];
    ok = ok && (stride * std::int64_t(sizeof(T))) % 16 == 0;
  }
  return ok;
}

// A contiguous row-major tensor as the stub describes it.
template <class T, int R>
ctd::in_arg<T, R> in_arg(const T* p, const std::array<std::int64_t, R>& extent) {
  ctd::in_arg<T, R> arg{};
  arg.data = p;
  std::int64_t stride = 1;
  for (int axis = R - 1; axis >= 0; --axis) arg.extent[axis] = extent[axis], arg.stride[axis] = stride, stride *= extent[axis];
  arg.aligned16 = aligned16<T, R>(p, extent);
  return arg;
}
template <class T, int R>
ctd::out_arg<T, R> out_arg(T* p, const std::array<std::int64_t, R>& extent, const std::array<int, R>& tile) {
  ctd::out_arg<T, R> arg{};
  arg.data = p;
  std::int64_t stride = 1;
  for (int axis = R - 1; axis >= 0; --axis) {
    arg.extent[axis] = extent[axis], arg.stride[axis] = stride, stride *= extent[axis];
    arg.tiles[axis] = (extent[axis] + tile[axis] - 1) / tile[axis];
  }
  arg.aligned16 = aligned16<T, R>(p, extent);
  return arg;
}
template <class T, int R>
unsigned grid_of(const ctd::out_arg<T, R>& out) {
  std::int64_t blocks = 1;
  for (int axis = 0; axis < R; ++axis) blocks *= out.tiles[axis];
  return unsigned(blocks);
}

// Device buffers of n elements plus 8 guard elements each side at least, poisoned (all bits set:
// NaN in f32 and bf16); the tensor starts at base + kAligned<T> (16-byte aligned) or base + 1 (not).
template <class T>
constexpr std::size_t kAligned = 16 / sizeof(T);
template <class T>
struct Buffer {
  T* base = nullptr;
  std::size_t n;
  explicit Buffer(std::size_t n_) : n(n_) { CHECK_CUDA(cudaMalloc(&base, (n + 16) * sizeof(T))); }
  ~Buffer() { cudaFree(base); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void poison() const { CHECK_CUDA(cudaMemset(base, 0xff, (n + 16) * sizeof(T))); }
};

std::uint64_t g_seed = 0x1234567u;
float next_uniform() {  // splitmix64 → uniform [-1, 1)
  std::uint64_t x = (g_seed += 0x9e3779b97f4a7c15ull);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  x ^= x >> 31;
  return float(x >> 40) * (2.f / 16777216.f) - 1.f;
}
// Fresh random values of T (scaled), uploaded at p.
template <class T>
std::vector<T> upload_random(T* p, std::size_t n, float scale = 1.f) {
  std::vector<T> host(n);
  for (auto& v : host) v = T(scale * next_uniform());
  CHECK_CUDA(cudaMemcpy(p, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  return host;
}
template <class T>
std::vector<T> download_raw(const T* p, std::size_t n) {
  std::vector<T> host(n);
  CHECK_CUDA(cudaMemcpy(host.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}
template <class T>
bool is_poison(T v) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &v, sizeof(T));
  for (unsigned char b : bytes)
    if (b != 0xff) return false;
  return true;
}

// Relative L2 and max |error| / max |reference| against a float64 reference, NaN fails; and the
// guard elements around the output untouched.
struct Check {
  double l2 = 0, max = 0;
  bool guards = true;
};
template <class T>
Check check(const Buffer<T>& out, std::size_t offset, const std::vector<double>& expected) {
  const std::vector<T> got = download_raw(out.base, out.n + 16);
  Check c;
  double diff = 0, norm = 0, max_ref = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double g = double(float(got[offset + i]));
    if (std::isnan(g)) return {NAN, NAN, false};
    const double d = std::fabs(g - expected[i]);
    diff += d * d, norm += expected[i] * expected[i];
    c.max = std::max(c.max, d), max_ref = std::max(max_ref, std::fabs(expected[i]));
  }
  c.l2 = std::sqrt(diff / norm), c.max /= max_ref;
  for (std::size_t i = 0; i < offset; ++i) c.guards = c.guards && is_poison(got[i]);
  for (std::size_t i = offset + expected.size(); i < got.size(); ++i) c.guards = c.guards && is_poison(got[i]);
  return c;
}

bool g_all_pass = true;
void report(const char* what, const std::string& size, const Check& c, double tolerance) {
  const bool pass = c.l2 < tolerance && c.max < 4 * tolerance && c.guards;
  g_all_pass = g_all_pass && pass;
  std::printf("  check %-34s %-22s rel L2 %.2e  max %.2e  guards %s  %s\n", what, size.c_str(), c.l2, c.max,
              c.guards ? "ok" : "WRITTEN", pass ? "PASS" : "FAIL");
}
constexpr double kF32Tolerance = 1e-5, kBf16Tolerance = 8e-3;

// ---- references (float64) ----
template <class T>
std::vector<double> add_reference(const std::vector<T>& a, const std::vector<T>& b) {
  std::vector<double> r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r[i] = double(float(a[i])) + double(float(b[i]));
  return r;
}
std::vector<double> softmax_reference(const std::vector<float>& x, std::int64_t rows, std::int64_t cols) {
  std::vector<double> r(x.size());
  for (std::int64_t i = 0; i < rows; ++i) {
    double m = -INFINITY, s = 0;
    for (std::int64_t j = 0; j < cols; ++j) m = std::max(m, double(x[i * cols + j]));
    for (std::int64_t j = 0; j < cols; ++j) s += std::exp(double(x[i * cols + j]) - m);
    for (std::int64_t j = 0; j < cols; ++j) r[i * cols + j] = std::exp(double(x[i * cols + j]) - m) / s;
  }
  return r;
}
std::vector<double> layernorm_reference(const std::vector<ct::bf16>& x, const std::vector<ct::bf16>& g,
                                        const std::vector<ct::bf16>& b, std::int64_t rows, std::int64_t cols, double eps) {
  std::vector<double> r(x.size());
  for (std::int64_t i = 0; i < rows; ++i) {
    double mean = 0, var = 0;
    for (std::int64_t j = 0; j < cols; ++j) mean += float(x[i * cols + j]);
    mean /= cols;
    for (std::int64_t j = 0; j < cols; ++j) var += (float(x[i * cols + j]) - mean) * (float(x[i * cols + j]) - mean);
    var /= cols;
    for (std::int64_t j = 0; j < cols; ++j)
      r[i * cols + j] = (float(x[i * cols + j]) - mean) / std::sqrt(var + eps) * float(g[j]) + float(b[j]);
  }
  return r;
}

// ---- kernel descriptions: a name, the tile shape, and how to launch on given pointers ----
template <class T, int R>
using TileKernel = void (*)(ctd::out_arg<T, R>, ctd::in_arg<T, R>, ctd::in_arg<T, R>);

template <class T, int R>
struct AddPlan {
  const char* name;
  TileKernel<T, R> kernel;
  int threads;
  std::array<int, R> tile;
  void launch(T* c, const T* a, const T* b, const std::array<std::int64_t, R>& extent) const {
    const auto out = out_arg<T, R>(c, extent, tile);
    kernel<<<grid_of(out), threads>>>(out, in_arg<T, R>(a, extent), in_arg<T, R>(b, extent));
  }
};
const AddPlan<float, 1> kAddF32[] = {
    {"tile add f32 <4096> t256 v4", tile_add_f32_4096_t256, 256, {4096}},
    {"tile add f32 <2048> t256 v4", tile_add_f32_2048_t256, 256, {2048}},
    {"tile add f32 <8192> t256 v4", tile_add_f32_8192_t256, 256, {8192}},
    {"tile add f32 <4096> t128 v4", tile_add_f32_4096_t128, 128, {4096}},
    {"tile add f32 <1024> t256 v4", tile_add_f32_1024_t256, 256, {1024}},
    {"tile add f32 <4096> t256 v4 minblocks 8", tile_add_f32_4096_t256_b8, 256, {4096}},
};
const AddPlan<ct::bf16, 2> kAddBf16[] = {
    {"tile add bf16 <8,512> t256 v8", tile_add_bf16_8x512_t256, 256, {8, 512}},
    {"tile add bf16 <16,512> t256 v8", tile_add_bf16_16x512_t256, 256, {16, 512}},
    {"tile add bf16 <4,512> t256 v8", tile_add_bf16_4x512_t256, 256, {4, 512}},
    {"tile add bf16 <8,512> t128 v8", tile_add_bf16_8x512_t128, 128, {8, 512}},
};

using SoftmaxKernel = void (*)(ctd::out_arg<float, 2>, ctd::in_arg<float, 2>);
struct SoftmaxPlan {
  const char* name;
  SoftmaxKernel kernel;
  int threads, rows_per_block;
  void launch(float* y, const float* x, std::int64_t rows, std::int64_t cols) const {
    const auto out = out_arg<float, 2>(y, {rows, cols}, {rows_per_block, 1024});
    kernel<<<grid_of(out), threads>>>(out, in_arg<float, 2>(x, {rows, cols}));
  }
};
const SoftmaxPlan kSoftmax[] = {
    {"tile softmax <1,1024> t256 v4", tile_softmax_1x1024_t256, 256, 1},
    {"tile softmax <1,1024> t128 v4", tile_softmax_1x1024_t128, 128, 1},
    {"tile softmax <1,1024> t64 v4", tile_softmax_1x1024_t64, 64, 1},
    {"tile softmax <1,1024> t32 v4", tile_softmax_1x1024_t32, 32, 1},
    {"tile softmax <2,1024> t64 v4", tile_softmax_2x1024_t64, 64, 2},
    {"tile softmax <4,1024> t256 v4", tile_softmax_4x1024_t256, 256, 4},
    {"tile softmax <8,1024> t256 v4", tile_softmax_8x1024_t256, 256, 8},
};

using LayernormKernel = void (*)(ctd::out_arg<ct::bf16, 2>, ctd::in_arg<ct::bf16, 2>, ctd::in_arg<ct::bf16, 2>,
                                 ctd::in_arg<ct::bf16, 2>, float);
constexpr float kEps = 1e-5f;
struct LayernormPlan {
  const char* name;
  LayernormKernel kernel;
  int threads;
  void launch(ct::bf16* y, const ct::bf16* x, const ct::bf16* g, const ct::bf16* b, std::int64_t rows) const {
    const auto out = out_arg<ct::bf16, 2>(y, {rows, 4096}, {1, 4096});
    kernel<<<grid_of(out), threads>>>(out, in_arg<ct::bf16, 2>(x, {rows, 4096}), in_arg<ct::bf16, 2>(g, {1, 4096}),
                                      in_arg<ct::bf16, 2>(b, {1, 4096}), kEps);
  }
};
const LayernormPlan kLayernorm[] = {
    {"tile layernorm <1,4096> t256 v8", tile_layernorm_4096_t256, 256},
    {"tile layernorm <1,4096> t256 v8 minblocks 5", tile_layernorm_4096_t256_b5, 256},
    {"tile layernorm <1,4096> t256 v8 minblocks 6", tile_layernorm_4096_t256_b6, 256},
    {"S0 probe: row coord + whole path only, min 6", probe_coord_whole_b6, 256},
    {"S1 = S0 with the library's load_whole", step1_lib_whole, 256},
    {"S2 = S1 with block_coord", step2_lib_whole_block_coord, 256},
    {"S3 = whole tests + whole body (row coord), no edge body", step3_tested_row_coord, 256},
    {"S3b = whole tests + whole body (block_coord), no edge body", step3b_tested_block_coord, 256},
    {"emitted form (whole-tile body + edge body), min 6", split_b6, 256},
    {"emitted form (whole-tile body + edge body), min 5", split_b5, 256},
    {"emitted form + whole body for one-tile-wide outputs, min 6", split_rows_b6, 256},
    {"whole-tile body + edge body in a __noinline__ function, min 6", split_call_b6, 256},
    {"whole-tile body + edge body in a __noinline__ function, min 5", split_call_b5, 256},
    {"whole-tile body + edge body in a __noinline__ function, no min", split_call_free, 256},
    {"probe: whole path only (block_coord), min 6", probe_whole_b6, 256},
    {"probe: row coord, min 8", probe_coord_b8, 256},
    {"probe: row coord, min 6", probe_coord_b6, 256},
    {"probe: row coord + whole path only, min 8", probe_coord_whole_b8, 256},
    {"probe: row coord + whole path only, min 6", probe_coord_whole_b6, 256},
    {"probe: row coord + whole only + no mask, min 8", probe_coord_whole_nomask_b8, 256},
    {"probe: row coord + whole only + no mask, min 6", probe_coord_whole_nomask_b6, 256},
    {"probe: row coord + plain loads + no mask, min 6", probe_coord_plain_nomask_b6, 256},
    {"probe: whole path only, min 8", probe_whole_b8, 256},
    {"probe: no mask, min 8", probe_nomask_b8, 256},
    {"sample form (n at run time, iota mask) minblocks 5", tile_layernorm_sample_b5, 256},
    {"sample form (n at run time, iota mask) minblocks 6", tile_layernorm_sample_b6, 256},
    {"sample form (n at run time, iota mask) minblocks 8", tile_layernorm_sample_b8, 256},
    {"sample form minblocks 7", tile_layernorm_sample_b7, 256},
    {"tile layernorm <1,4096> t256 v8 loads first", tile_layernorm_first_4096_t256, 256},
};

using GemmKernel = TileKernel<ct::bf16, 2>;
struct GemmPlan {
  const char* name;
  GemmKernel kernel;
  int threads, smem_bytes, bm, bn;
  void configure() const {
    CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
    CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, int(cudaSharedmemCarveoutMaxShared)));
  }
  void launch(ct::bf16* c, const ct::bf16* a, const ct::bf16* b, int m, int n, int k) const {
    const auto out = out_arg<ct::bf16, 2>(c, {m, n}, {bm, bn});
    kernel<<<grid_of(out), threads, smem_bytes>>>(out, in_arg<ct::bf16, 2>(a, {m, k}), in_arg<ct::bf16, 2>(b, {k, n}));
  }
};
template <int BM, int BN, int BK, int WM, int WN, int S>
GemmPlan gemm_plan(const char* name, GemmKernel kernel) {
  using P = ctd::sm80::gemm_plan<ct::bf16, BM, BN, BK, WM, WN, S>;
  return {name, kernel, P::kThreads, P::kSmemBytes, BM, BN};
}
const GemmPlan kGemm[] = {
    gemm_plan<128, 128, 64, 2, 2, 3>("tile gemm 128x128x64 w2x2 s3", tile_gemm_128x128x64_w2x2_s3),
    gemm_plan<128, 128, 64, 2, 2, 4>("tile gemm 128x128x64 w2x2 s4", tile_gemm_128x128x64_w2x2_s4),
    gemm_plan<128, 128, 64, 2, 4, 3>("tile gemm 128x128x64 w2x4 s3", tile_gemm_128x128x64_w2x4_s3),
    gemm_plan<128, 256, 64, 2, 4, 3>("tile gemm 128x256x64 w2x4 s3", tile_gemm_128x256x64_w2x4_s3),
    gemm_plan<128, 256, 64, 2, 4, 4>("tile gemm 128x256x64 w2x4 s4", tile_gemm_128x256x64_w2x4_s4),
    gemm_plan<128, 256, 64, 2, 4, 3>("tile gemm 128x256x64 s3, groups of 4 rows", tile_gemm_group4),
    gemm_plan<128, 256, 64, 2, 4, 3>("tile gemm 128x256x64 s3, groups of 16 rows", tile_gemm_group16),
    gemm_plan<128, 256, 64, 2, 4, 3>("tile gemm 128x256x64 s3, groups of 32 rows", tile_gemm_group32),
};

// ---- correctness at small, odd sizes ----
void check_add() {
  for (std::int64_t n : {std::int64_t(1000003), std::int64_t(4096 * 7), std::int64_t(5)})
    for (std::size_t offset : {kAligned<float>, std::size_t(1)}) {  // unaligned: every tile masked
      Buffer<float> a(n), b(n), c(n);
      const auto ha = upload_random(a.base + offset, n), hb = upload_random(b.base + offset, n);
      const auto expected = add_reference(ha, hb);
      const std::string size = std::to_string(n) + (offset == 1 ? " unaligned" : " aligned");
      for (const auto& p : kAddF32) {
        c.poison();
        p.launch(c.base + offset, a.base + offset, b.base + offset, {n});
        CHECK_CUDA(cudaGetLastError());
        report(p.name, size, check(c, offset, expected), kF32Tolerance);
      }
      if (offset == 1) continue;  // the twin needs 16-byte aligned rows
      c.poison();
      twin::add_f32<<<unsigned((n + 4095) / 4096), twin::kAddThreads>>>(c.base + offset, a.base + offset, b.base + offset, n);
      report("twin add f32", size, check(c, offset, expected), kF32Tolerance);
    }
  const std::array<std::int64_t, 2> shapes[] = {{1003, 1032}, {77, 517}, {8, 512}};
  for (const auto& e : shapes)
    for (std::size_t offset : {kAligned<ct::bf16>, std::size_t(1)}) {
      const std::size_t n = std::size_t(e[0] * e[1]);
      Buffer<ct::bf16> a(n), b(n), c(n);
      const auto ha = upload_random(a.base + offset, n), hb = upload_random(b.base + offset, n);
      const auto expected = add_reference(ha, hb);
      const std::string size = std::to_string(e[0]) + "x" + std::to_string(e[1]) + (offset == 1 ? " unaligned" : "");
      for (const auto& p : kAddBf16) {
        c.poison();
        p.launch(c.base + offset, a.base + offset, b.base + offset, e);
        CHECK_CUDA(cudaGetLastError());
        report(p.name, size, check(c, offset, expected), kBf16Tolerance);
      }
    }
}

void check_softmax() {
  const std::array<std::int64_t, 2> shapes[] = {{333, 1024}, {100, 1000}, {37, 999}, {8, 1024}};
  for (const auto& e : shapes) {
    const std::size_t n = std::size_t(e[0] * e[1]);
    Buffer<float> x(n), y(n);
    const auto hx = upload_random(x.base + 4, n, 8.f);
    const auto expected = softmax_reference(hx, e[0], e[1]);
    const std::string size = std::to_string(e[0]) + "x" + std::to_string(e[1]);
    for (const auto& p : kSoftmax) {
      y.poison();
      p.launch(y.base + 4, x.base + 4, e[0], e[1]);
      CHECK_CUDA(cudaGetLastError());
      report(p.name, size, check(y, 4, expected), kF32Tolerance);
    }
    if (e[1] == 1024) {
      y.poison();
      twin::softmax_1024<<<unsigned((e[0] + 7) / 8), 256>>>(y.base + 4, x.base + 4, int(e[0]));
      report("twin softmax warp/row", size, check(y, 4, expected), kF32Tolerance);
    }
  }
}

void check_layernorm() {
  for (std::int64_t rows : {77, 1}) {
    const std::size_t n = std::size_t(rows) * 4096;
    Buffer<ct::bf16> x(n), y(n), g(4096), b(4096);
    auto hx = upload_random(x.base + 8, n, 3.f);
    const auto hg = upload_random(g.base + 8, 4096), hb = upload_random(b.base + 8, 4096);
    for (std::size_t i = 0; i < n; ++i) hx[i] = ct::bf16(float(hx[i]) + 1.f);  // a mean away from 0
    CHECK_CUDA(cudaMemcpy(x.base + 8, hx.data(), n * 2, cudaMemcpyHostToDevice));
    const auto expected = layernorm_reference(hx, hg, hb, rows, 4096, kEps);
    const std::string size = std::to_string(rows) + "x4096";
    for (const auto& p : kLayernorm) {
      y.poison();
      p.launch(y.base + 8, x.base + 8, g.base + 8, b.base + 8, rows);
      CHECK_CUDA(cudaGetLastError());
      report(p.name, size, check(y, 8, expected), kBf16Tolerance);
    }
    y.poison();
    twin::layernorm_4096<256><<<unsigned(rows), 256>>>(reinterpret_cast<bf16*>(y.base + 8), reinterpret_cast<bf16*>(x.base + 8),
                                                       reinterpret_cast<bf16*>(g.base + 8), reinterpret_cast<bf16*>(b.base + 8), kEps);
    report("twin layernorm t256", size, check(y, 8, expected), kBf16Tolerance);
  }
}

void check_gemm() {
  const int sizes[][3] = {{256, 512, 512}, {200, 136, 72}, {77, 264, 40}, {129, 8, 8}, {300, 520, 1000}};
  for (const auto& s : sizes) {
    const int m = s[0], n = s[1], k = s[2];
    Buffer<ct::bf16> a(std::size_t(m) * k), b(std::size_t(k) * n), c(std::size_t(m) * n);
    const auto ha = upload_random(a.base + 8, std::size_t(m) * k), hb = upload_random(b.base + 8, std::size_t(k) * n);
    std::vector<double> expected(std::size_t(m) * n, 0.0);
    for (int i = 0; i < m; ++i)
      for (int l = 0; l < k; ++l) {
        const double x = float(ha[std::size_t(i) * k + l]);
        for (int j = 0; j < n; ++j) expected[std::size_t(i) * n + j] += x * float(hb[std::size_t(l) * n + j]);
      }
    const std::string size = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
    for (const auto& p : kGemm) {
      c.poison();
      p.launch(c.base + 8, a.base + 8, b.base + 8, m, n, k);
      CHECK_CUDA(cudaGetLastError());
      report(p.name, size, check(c, 8, expected), kBf16Tolerance);
    }
  }
}

// ---- timing ----
struct Timed {
  std::string name;
  double bytes;  // moved through device memory (read + written), or flops for a GEMM
  std::function<void()> launch;
  std::vector<float> ms;
  double median() const {
    std::vector<float> s = ms;
    std::sort(s.begin(), s.end());
    return s[s.size() / 2];
  }
};

void time_interleaved(std::vector<Timed>& kernels, int warmup, int rounds) {
  for (Timed& t : kernels)
    for (int i = 0; i < warmup; ++i) t.launch();
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  for (int r = 0; r < rounds; ++r)
    for (Timed& t : kernels) {
      CHECK_CUDA(cudaEventRecord(start));
      t.launch();
      CHECK_CUDA(cudaEventRecord(stop));
      CHECK_CUDA(cudaEventSynchronize(stop));
      float ms = 0;
      CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
      t.ms.push_back(ms);
    }
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
}

// Prints a group: kernels[0] is the copy (bytes/s ceiling), kernels[1] the twin.
std::vector<std::string> g_summary;
void print_bandwidth_group(const char* group, const std::vector<Timed>& kernels) {
  const double copy = kernels[0].bytes / kernels[0].median(), twin = kernels[1].bytes / kernels[1].median();
  for (const Timed& t : kernels) {
    const double rate = t.bytes / t.median();
    char line[256];
    std::snprintf(line, sizeof line, "| %s | %s | %.4f | %.0f | %.3f | %.3f |", group, t.name.c_str(), t.median(),
                  rate / 1e6, rate / copy, rate / twin);
    std::printf("%s\n", line);
    g_summary.push_back(line);
  }
}

__global__ void fill_random_f32(float* p, std::size_t n, std::uint32_t seed, float scale) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
    std::uint64_t x = (std::uint64_t(seed) << 40) ^ i;
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    p[i] = scale * (float(x >> 40) * (2.f / 16777216.f) - 1.f);
  }
}

// A copy of one buffer of `buffer_bytes`, counted as read + written: the bandwidth ceiling.
Timed copy_of(std::size_t buffer_bytes, void* to, const void* from) {
  return {"cudaMemcpyAsync D2D", 2.0 * buffer_bytes,
          [=] { CHECK_CUDA(cudaMemcpyAsync(to, from, buffer_bytes, cudaMemcpyDeviceToDevice)); }, {}};
}

constexpr int kWarmup = 5, kRounds = 40;

void measure_add() {
  const std::int64_t n = std::int64_t(1) << 27;  // 512 MiB an operand in f32
  Buffer<float> a(n), b(n), c(n);
  fill_random_f32<<<1024, 256>>>(a.base, n, 1, 1.f);
  fill_random_f32<<<1024, 256>>>(b.base, n, 2, 1.f);
  const double bytes = 3.0 * n * 4;
  std::vector<Timed> k = {copy_of(n * 4, c.base, a.base),
                          {"twin float4 x4", bytes, [&] { twin::add_f32<<<unsigned(n / 4096), 256>>>(c.base, a.base, b.base, n); }, {}}};
  for (const auto& p : kAddF32) k.push_back({p.name, bytes, [&, p] { p.launch(c.base, a.base, b.base, {n}); }, {}});
  time_interleaved(k, kWarmup, kRounds);
  print_bandwidth_group("add f32 2^27", k);

  // bf16 over the same buffers, as a (16384 × 8192) matrix.
  const std::array<std::int64_t, 2> e = {16384, 8192};
  const std::int64_t elements = e[0] * e[1];
  auto* ab = reinterpret_cast<ct::bf16*>(a.base);
  auto* bb = reinterpret_cast<ct::bf16*>(b.base);
  auto* cb = reinterpret_cast<ct::bf16*>(c.base);
  const double bytes16 = 3.0 * elements * 2;
  std::vector<Timed> k16 = {copy_of(elements * 2, c.base, a.base),
                            {"twin uint4 x4", bytes16,
                             [&] {
                               twin::add_bf16<<<unsigned(elements / 8192), 256>>>(reinterpret_cast<bf16*>(cb), reinterpret_cast<bf16*>(ab),
                                                                                  reinterpret_cast<bf16*>(bb), elements);
                             },
                             {}}};
  for (const auto& p : kAddBf16) k16.push_back({p.name, bytes16, [&, p] { p.launch(cb, ab, bb, e); }, {}});
  time_interleaved(k16, kWarmup, kRounds);
  print_bandwidth_group("add bf16 16384x8192", k16);
}

void measure_softmax() {
  const std::int64_t rows = 131072, cols = 1024;
  Buffer<float> x(rows * cols), y(rows * cols);
  fill_random_f32<<<1024, 256>>>(x.base, rows * cols, 3, 8.f);
  const double bytes = 2.0 * rows * cols * 4;
  std::vector<Timed> k = {copy_of(rows * cols * 4, y.base, x.base),
                          {"twin warp/row", bytes, [&] { twin::softmax_1024<<<unsigned(rows / 8), 256>>>(y.base, x.base, int(rows)); }, {}}};
  for (const auto& p : kSoftmax) k.push_back({p.name, bytes, [&, p] { p.launch(y.base, x.base, rows, cols); }, {}});
  time_interleaved(k, kWarmup, kRounds);
  print_bandwidth_group("softmax f32 131072x1024", k);
}

void measure_layernorm() {
  const std::int64_t rows = 65536;
  Buffer<ct::bf16> x(rows * 4096), y(rows * 4096), g(4096), b(4096);
  fill_random<<<1024, 256>>>(reinterpret_cast<bf16*>(x.base), rows * 4096, 4);
  upload_random(g.base, 4096), upload_random(b.base, 4096);
  const double bytes = 2.0 * rows * 4096 * 2;
  auto twin_launch = [&](auto kernel, int threads) {
    kernel<<<unsigned(rows), threads>>>(reinterpret_cast<bf16*>(y.base), reinterpret_cast<bf16*>(x.base), reinterpret_cast<bf16*>(g.base),
                                        reinterpret_cast<bf16*>(b.base), kEps);
  };
  std::vector<Timed> k = {copy_of(rows * 4096 * 2, y.base, x.base),
                          {"twin block/row t256", bytes, [&] { twin_launch(twin::layernorm_4096<256>, 256); }, {}},
                          {"twin block/row t512", bytes, [&] { twin_launch(twin::layernorm_4096<512>, 512); }, {}}};
  for (const auto& p : kLayernorm) k.push_back({p.name, bytes, [&, p] { p.launch(y.base, x.base, g.base, b.base, rows); }, {}});
  time_interleaved(k, kWarmup, kRounds);
  print_bandwidth_group("layernorm bf16 65536x4096", k);
}

void measure_gemm(cublasHandle_t handle, const Variant& anchor256, const Variant& anchor128, int m, int n, int k) {
  Problem p(m, n, k);
  run_cublas(handle, p);
  CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<float> expected = download(p.c_cublas, p.c_elements());
  const bool fast = m % 256 == 0 && n % 256 == 0 && k % 64 == 0;
  auto* a = reinterpret_cast<const ct::bf16*>(p.a);
  auto* b = reinterpret_cast<const ct::bf16*>(p.b);
  auto* c = reinterpret_cast<ct::bf16*>(p.c);
  std::vector<Timed> kernels = {{"cublasGemmEx", p.flops(), [&] { run_cublas(handle, p); }, {}}};
  for (const Variant* v : {&anchor256, &anchor128}) {
    const Launch launch = fast ? v->fast : v->edge;
    kernels.push_back({std::string("anchor ") + v->name + (fast ? " fast" : " edge"), p.flops(),
                       [&p, launch, m, n, k] { launch(p.a, p.b, p.c, m, n, k); }, {}});
  }
  for (const GemmPlan& g : kGemm) {
    p.poison_c();
    g.launch(c, a, b, m, n, k);
    CHECK_CUDA(cudaGetLastError());
    const Error e = compare(download(p.c, p.c_elements()), expected);
    g_all_pass = g_all_pass && e.pass();
    std::printf("  check %-34s %dx%dx%d vs cuBLAS: rel L2 %.2e  max %.2e  %s\n", g.name, m, n, k, e.l2, e.max, e.pass() ? "PASS" : "FAIL");
    kernels.push_back({g.name, p.flops(), [&, g] { g.launch(c, a, b, m, n, k); }, {}});
  }
  time_interleaved(kernels, kWarmup, 30);
  const double cublas = p.flops() / kernels[0].median(), anchor = p.flops() / kernels[1].median();
  char size[64];
  std::snprintf(size, sizeof size, "gemm %dx%dx%d", m, n, k);
  for (const Timed& t : kernels) {
    const double rate = t.bytes / t.median();
    char line[256];
    std::snprintf(line, sizeof line, "| %s | %s | %.3f | %.1f | %.3f | %.3f |", size, t.name.c_str(), t.median(), rate / 1e9,
                  rate / anchor, rate / cublas);
    std::printf("%s\n", line);
    g_summary.push_back(line);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool check_only = argc > 1 && std::string(argv[1]) == "--check";
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs\n", prop.name, prop.multiProcessorCount);
  for (const GemmPlan& g : kGemm) {
    g.configure();
    int blocks = 0;
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, g.kernel, g.threads, g.smem_bytes));
    cudaFuncAttributes attributes;
    CHECK_CUDA(cudaFuncGetAttributes(&attributes, g.kernel));
    std::printf("plan %-30s %d threads  %6d B shared  %d registers  %d local B  blocks/SM %d\n", g.name, g.threads,
                g.smem_bytes, attributes.numRegs, int(attributes.localSizeBytes), blocks);
  }

  check_add();
  check_softmax();
  check_layernorm();
  check_gemm();
  if (check_only) {
    std::printf("%s\n", g_all_pass ? "ALL PASS" : "SOME FAILED");
    return g_all_pass ? 0 : 1;
  }

  const bool layernorm_only = argc > 1 && std::string(argv[1]) == "--layernorm";
  const bool gemm_only = argc > 1 && std::string(argv[1]) == "--gemm";
  if (!layernorm_only && !gemm_only) measure_add(), measure_softmax();
  if (!gemm_only) measure_layernorm();
  if (layernorm_only) {
    std::printf("\n| group | kernel | median ms | GB/s | / copy | / twin |\n| --- | --- | ---: | ---: | ---: | ---: |\n");
    for (const std::string& line : g_summary) std::printf("%s\n", line.c_str());
    std::printf("%s\n", g_all_pass ? "ALL PASS" : "SOME FAILED");
    return g_all_pass ? 0 : 1;
  }
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return std::fprintf(stderr, "cublasCreate failed\n"), 1;
  const Variant anchor256 = make_variant<Tile128x256x64>("128x256x64s3w8");
  const Variant anchor128 = make_variant<Tile128x128x32w4>("128x128x32s4w4");
  for (const auto& s : std::vector<std::array<int, 3>>{{4096, 4096, 4096}, {8192, 8192, 8192}, {4000, 4000, 4000}})
    measure_gemm(handle, anchor256, anchor128, s[0], s[1], s[2]);
  cublasDestroy(handle);

  std::printf("\n| group | kernel | median ms | GB/s (or GFLOP/s) | / copy (or / anchor) | / twin (or / cuBLAS) |\n"
              "| --- | --- | ---: | ---: | ---: | ---: |\n");
  for (const std::string& line : g_summary) std::printf("%s\n", line.c_str());
  std::printf("%s\n", g_all_pass ? "ALL PASS" : "SOME FAILED");
  return g_all_pass ? 0 : 1;
}
