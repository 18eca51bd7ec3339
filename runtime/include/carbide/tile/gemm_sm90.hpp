// The GEMM k-loop of a tile kernel on sm_90a (Hopper): wgmma fed by TMA, as the emitter calls it
// for a recognised
//   acc = zeros; for (k : irange(pa.tiles(1))) acc = mma(pa.load(bm, k), pb.load(k, bn), acc);
// when every target of the translation is sm_90a. ctd::sm90::gemm_mainloop<Plan>(...) runs the
// whole k-loop and returns the f32 accumulator fragment (layout sm90::acc<Plan>); elementwise ops
// work on it in place and ctd::store writes it.
//
// The block is warp-specialized (bench/experiments/wgmma_tma_gemm.cu, the measured form): warpgroup
// 0 is the producer, one of its threads issues the TMA copies of every k tile; warpgroups 1 to
// BM / 64 are consumers, each owning 64 rows of the block tile and issuing m64nBNk16 wgmmas.
// Stages ring through shared memory, each guarded by two mbarriers: `full` completes when the
// stage's bytes have landed, `empty` when every consumer warp is done reading it.
// Shared tiles use the 128-byte swizzle TMA writes and wgmma reads: A as BK / 64 boxes of BM rows
// × 64 elements (K-major), B as BN / 64 boxes of BK rows × 64 columns (N-major, as B lies in
// memory: nothing is transposed). Edges cost nothing: TMA zero-fills what lies outside a tensor;
// the store masks rows and columns.
//
// Preconditions the host stub checks before the launch (the same as the sm80 plan's):
//   - K % 8 == 0 and N % 8 == 0 (TMA's row strides are multiples of 16 bytes); a, b and the
//     output aligned16;
//   - the launch gives Plan::kThreads threads and Plan::kSmemBytes dynamic shared bytes, and the
//     tensor maps of a (boxes of BM × 64) and b (boxes of BK × 64), 128-byte swizzle
//     (carbide::detail::tile_tensor_map).
#pragma once

#include <carbide/tile/args.hpp>
#include <carbide/tile/block.hpp>
#include <carbide/tile/gemm_sm80.hpp>
#include <carbide/tile/shape.hpp>
#include <carbide/tile/types.hpp>
#include <carbide/tile/wgmma.hpp>

#include <cstdint>
#include <type_traits>

namespace carbide::tile::detail::sm90 {

// The planner's choices for one GEMM (block tile BM × BN, k depth BK, pipeline stages) and what
// follows from them. Host-visible, so the stub reads kThreads and kSmemBytes from the type the
// kernel uses.
template <class T, int BM, int BN, int BK, int Stages>
struct gemm_plan {
  static_assert(is_mma16_v<T>, "wgmma takes bf16 or f16");
  static_assert(BM % 64 == 0 && (BN == 128 || BN == 256) && BK % 64 == 0 && Stages >= 2);
  using element_type = T;
  static constexpr int kBM = BM, kBN = BN, kBK = BK, kStages = Stages;
  static constexpr int kConsumers = BM / 64;  // warpgroups of 64 rows
  static constexpr int kThreads = 128 * (kConsumers + 1);
  static constexpr int kBoxColumns = ::carbide::tile::sm90::kSwizzleBytes / int(sizeof(T));  // 64
  static constexpr int kABoxBytes = BM * 128, kBBoxBytes = BK * 128;  // one TMA box of A, of B
  static constexpr int kABytes = BK / kBoxColumns * kABoxBytes, kBBytes = BN / kBoxColumns * kBBoxBytes;
  static constexpr int kStageBytes = kABytes + kBBytes;
  // The stages, their 2 × Stages mbarriers, and slack to start the first stage on a swizzle atom.
  static constexpr int kSmemBytes =
      Stages * kStageBytes + 2 * Stages * 8 + ::carbide::tile::sm90::kSwizzleAtomBytes;
  static constexpr int kGroupM = 8;  // block rows swept together (gemm_block_coord)

  static constexpr bool preconditions_hold(std::int64_t m, std::int64_t n, std::int64_t k, bool a_aligned16,
                                           bool b_aligned16, bool c_aligned16) {
    return m > 0 && n > 0 && k > 0 && k % 8 == 0 && n % 8 == 0 && a_aligned16 && b_aligned16 && c_aligned16;
  }
};

// The accumulator layout of a plan: thread t of consumer warpgroup g = t / 128 - 1 holds rows
// 64g .. 64g + 63 in m64nk16_accumulator's map; the producer's threads hold nothing.
template <class Plan>
struct acc {};

}  // namespace carbide::tile::detail::sm90

namespace carbide::tile::detail {

// m64nk16_accumulator's map is the m16n8 C map of one warp a 16-row piece, repeated along N: the
// C fragment map of 4 warps a consumer warpgroup, one warp across, after the producer's 128
// threads, which hold no element (row() is -1 for them).
template <class Shape, class Plan>
struct layout_of<Shape, sm90::acc<Plan>> : c_fragment_map<Plan::kBM, Plan::kBN, 4 * Plan::kConsumers, 1, 128> {
  static_assert(Shape::last() == Plan::kBN && Shape::size == std::int64_t(Plan::kBM) * Plan::kBN,
                "an accumulator has its plan's block tile");
};
template <class Plan>
inline constexpr bool is_c_fragment_v<sm90::acc<Plan>> = true;
template <class Plan>
struct c_fragment_extents<sm90::acc<Plan>> {
  static constexpr int kRows = Plan::kBM, kCols = Plan::kBN;
};

}  // namespace carbide::tile::detail

#if defined(__CUDACC__)

namespace carbide::tile::detail::sm90 {

namespace mech = ::carbide::tile::sm90;

// The whole k-loop over all of K for the block tile (bm, bn): the f32 accumulator fragment (zeros
// in the producer's threads, which hold none of it).
template <class Plan>
CARBIDE_TILE_DEVICE frag<float, shape<Plan::kBM, Plan::kBN>, acc<Plan>> gemm_mainloop(
    const in_arg<typename Plan::element_type, 2>& a, const in_arg<typename Plan::element_type, 2>& /*b*/,
    const tensor_map& a_map, const tensor_map& b_map, int bm, int bn) {
  using T = typename Plan::element_type;
  constexpr int kStages = Plan::kStages, kBK = Plan::kBK, kBoxColumns = Plan::kBoxColumns;
  // The stages from the first swizzle atom of the dynamic shared memory on, then the barriers.
  unsigned char* const raw = sm80::dynamic_smem();
  unsigned char* const base = raw + (-mech::smem_address(raw) & (mech::kSwizzleAtomBytes - 1));
  unsigned char* const a_tiles = base;
  unsigned char* const b_tiles = base + kStages * Plan::kABytes;
  std::uint64_t* const full = reinterpret_cast<std::uint64_t*>(base + kStages * Plan::kStageBytes);
  std::uint64_t* const empty = full + kStages;
  const int k_tiles = int((a.extent[1] + kBK - 1) / kBK);
  const int m0 = bm * Plan::kBM, n0 = bn * Plan::kBN;

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      mech::barrier_init(full + s, 1);
      mech::barrier_init(empty + s, 4 * Plan::kConsumers);  // one arrival per consumer warp
    }
    mech::barrier_init_fence();
  }
  __syncthreads();

  frag<float, shape<Plan::kBM, Plan::kBN>, acc<Plan>> f;
#pragma unroll
  for (int i = 0; i < f.kCount; ++i) f.v[i] = 0.f;
  const int warpgroup = threadIdx.x / 128;
  if (warpgroup == 0) {
    if (threadIdx.x == 0)
      for (int kt = 0; kt < k_tiles; ++kt) {
        const int s = kt % kStages, round = kt / kStages;
        if (round > 0) mech::barrier_wait(empty + s, (round - 1) & 1);
        mech::barrier_expect_bytes(full + s, Plan::kStageBytes);
#pragma unroll
        for (int box = 0; box < kBK / kBoxColumns; ++box)
          mech::tma_load(a_tiles + s * Plan::kABytes + box * Plan::kABoxBytes, &a_map, full + s,
                         kt * kBK + box * kBoxColumns, m0);
#pragma unroll
        for (int box = 0; box < Plan::kBN / kBoxColumns; ++box)
          mech::tma_load(b_tiles + s * Plan::kBBytes + box * Plan::kBBoxBytes, &b_map, full + s,
                         n0 + box * kBoxColumns, kt * kBK);
      }
    return f;
  }

  const int consumer = warpgroup - 1;
  const std::uint32_t a_shared = mech::smem_address(a_tiles), b_shared = mech::smem_address(b_tiles);
  for (int kt = 0; kt < k_tiles; ++kt) {
    const int s = kt % kStages;
    mech::barrier_wait(full + s, (kt / kStages) & 1);
    mech::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kBK / 16; ++kk) {
      // A: this warpgroup's 64 rows of box kk / 4, k step kk % 4 = 32 bytes into each 128-byte row
      // (the swizzle applies to the address bits, so the step stays a plain offset). B: 16 rows of
      // 128 bytes a k step; its boxes of 64 columns lie kBBoxBytes apart, 8-row groups 1024 apart.
      const std::uint32_t a_at = a_shared + s * Plan::kABytes + kk / 4 * Plan::kABoxBytes + consumer * 64 * 128 +
                                 kk % 4 * 32;
      const std::uint32_t b_at = b_shared + s * Plan::kBBytes + kk * 16 * 128;
      mech::mma_m64k16<T, Plan::kBN>(f.v, mech::descriptor(a_at, 16, mech::kSwizzleAtomBytes),
                                     mech::descriptor(b_at, Plan::kBBoxBytes, mech::kSwizzleAtomBytes));
    }
    mech::wgmma_commit();
    mech::wgmma_wait<0>();
    __syncwarp();
    if (threadIdx.x % 32 == 0) mech::barrier_arrive(empty + s);
  }
  return f;
}

}  // namespace carbide::tile::detail::sm90

namespace carbide::tile::detail {

// An accumulator-layout tile (f32, or cast to a 16-bit float) into `out` at `tile`, straight from
// the registers: each thread's element pairs (one row, adjacent columns) inside the tensor.
template <class T, class Plan, class Shape>
CARBIDE_TILE_DEVICE void store(const out_arg<T, 2>& out, const tile_coord<2>& tile, const frag<T, Shape, sm90::acc<Plan>>& f) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "16-bit or 32-bit elements");
  using L = layout_of<shape<Plan::kBM, Plan::kBN>, sm90::acc<Plan>>;
  const int thread = threadIdx.x;
  if (thread < 128) return;  // the producer holds nothing
  const std::int64_t row0 = std::int64_t(tile[0]) * Plan::kBM, col0 = std::int64_t(tile[1]) * Plan::kBN;
  const std::int64_t ld = out.stride[0];
  // N % 8 == 0 and aligned16 (the stub checked both): a pair's first column inside means both are.
#pragma unroll
  for (int i = 0; i < f.kCount; i += 2) {
    const std::int64_t row = row0 + L::row(thread, i), col = col0 + L::column(thread, i);
    if (row < out.extent[0] && col < out.extent[1]) store_pair(out.data + row * ld + col, f.v[i], f.v[i + 1]);
  }
}

}  // namespace carbide::tile::detail

#endif  // __CUDACC__
