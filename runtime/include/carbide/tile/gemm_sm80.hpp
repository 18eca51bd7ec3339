// The GEMM k-loop of a tile kernel on the sm_80 instruction set (mma.sync m16n8k16, ldmatrix,
// cp.async; runs on sm_80 to sm_90), as the emitter calls it for a recognised
//   acc = zeros; for (k : irange(pa.tiles(1))) acc = mma(pa.load(bm, k), pb.load(k, bn), acc);
// ctd::sm80::gemm_mainloop<Plan>(a, b, bm, bn) runs the whole pipelined loop and returns the f32
// accumulator fragment (layout sm80::acc<Plan>); elementwise ops work on it in place, and
// ctd::store of it stages through shared memory and writes 16-byte rows.
//
// A (M×K) and B (K×N) are row-major: A staged (m, k) and read with ldmatrix, B staged (k, n) as it
// is in memory and read with ldmatrix.trans. The code is bench/experiments/tile_mechanisms_gemm.cu's
// kernel (0.99+ of the hand-written anchor) around the mechanisms of mma.hpp and copy.hpp.
//
// Preconditions the host stub checks before the launch (gemm_plan::preconditions_hold):
//   - K % 8 == 0 and N % 8 == 0: every row of A, B and C starts 16-byte aligned, which the 16-byte
//     cp.async copies and the zero-fill (masked per 16-byte chunk) need; M is arbitrary;
//   - a, b and the output aligned16 (base 16-byte aligned, row strides multiples of 16 bytes,
//     last stride 1);
//   - the launch gives Plan::kThreads threads and Plan::kSmemBytes dynamic shared bytes (over 48 KB:
//     cudaFuncSetAttribute(MaxDynamicSharedMemorySize) first).
#pragma once

#include <carbide/tile/args.hpp>
#include <carbide/tile/block.hpp>
#include <carbide/tile/copy.hpp>
#include <carbide/tile/layouts.hpp>
#include <carbide/tile/mma.hpp>
#include <carbide/tile/shape.hpp>
#include <carbide/tile/types.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace carbide::tile::detail::sm80 {

namespace mech = ::carbide::tile::sm80;

// The planner's choices for one GEMM (block tile BM × BN, k depth BK, warps WarpsM × WarpsN,
// pipeline stages) and what follows from them. Host-visible, so the stub reads kThreads and
// kSmemBytes from the same type the kernel uses.
template <class T, int BM, int BN, int BK, int WarpsM, int WarpsN, int Stages>
struct gemm_plan {
  static_assert(is_mma16_v<T>, "mma.sync m16n8k16 takes bf16 or f16");
  using element_type = T;
  static constexpr int kBM = BM, kBN = BN, kBK = BK, kWarpsM = WarpsM, kWarpsN = WarpsN, kStages = Stages;
  static constexpr int kThreads = 32 * WarpsM * WarpsN;
  static constexpr int kWarpTileM = BM / WarpsM, kWarpTileN = BN / WarpsN;
  static constexpr int kMmaM = kWarpTileM / 16, kMmaN = kWarpTileN / 8;  // m16n8 tiles a warp
  static_assert(kWarpTileM % 16 == 0 && kWarpTileN % 16 == 0 && BK % 32 == 0 && Stages >= 2);
  using ATile = swizzled_tile<BM, BK, T>;  // one stage of A, (m, k)
  using BTile = swizzled_tile<BK, BN, T>;  // one stage of B, (k, n)
  static constexpr int kPipelineBytes = Stages * (ATile::kBytes + BTile::kBytes);
  // The epilogue's C tile reuses the pipeline's memory, rows padded by 8 elements so that the
  // fragments' paired writes and the 16-byte row reads are both conflict-free; sized for f32.
  static constexpr int kCStride = BN + 8;
  static constexpr int kEpilogueBytes = BM * kCStride * int(sizeof(float));
  static constexpr int kSmemBytes = kPipelineBytes > kEpilogueBytes ? kPipelineBytes : kEpilogueBytes;
  // Consecutive blocks walk down kGroupM block rows before moving right (gemm_block_coord), so a
  // wave's A and B panels stay in L2.
  static constexpr int kGroupM = 8;
  static constexpr int kRowAlignment = 8;  // K % 8 == 0, N % 8 == 0

  static constexpr bool preconditions_hold(std::int64_t m, std::int64_t n, std::int64_t k, bool a_aligned16,
                                           bool b_aligned16, bool c_aligned16) {
    return m > 0 && n > 0 && k > 0 && k % kRowAlignment == 0 && n % kRowAlignment == 0 && a_aligned16 &&
           b_aligned16 && c_aligned16;
  }
};

// The accumulator layout of a plan: warp w owns the warp tile (w / WarpsN, w % WarpsN); a thread
// holds kMmaM × kMmaN m16n8 accumulators, element (mi, ni, r) at index (mi · kMmaN + ni) · 4 + r,
// placed by m16n8k16's C map.
template <class Plan>
struct acc {};

}  // namespace carbide::tile::detail::sm80

namespace carbide::tile::detail {

// The plan's block tile as a matrix; a batched GEMM's accumulator is shape<1, BM, BN>.
template <class Shape, class Plan>
struct layout_of<Shape, sm80::acc<Plan>>
    : c_fragment_map<Plan::kBM, Plan::kBN, Plan::kWarpsM, Plan::kWarpsN> {
  static_assert(Shape::last() == Plan::kBN && Shape::size == std::int64_t(Plan::kBM) * Plan::kBN,
                "an accumulator has its plan's block tile");
};
template <class Plan>
inline constexpr bool is_c_fragment_v<sm80::acc<Plan>> = true;
template <class Plan>
struct c_fragment_extents<sm80::acc<Plan>> {
  static constexpr int kRows = Plan::kBM, kCols = Plan::kBN;
};

}  // namespace carbide::tile::detail

#if defined(__CUDACC__)

namespace carbide::tile::detail::sm80 {

// The dynamic shared memory of the launch (Plan::kSmemBytes): the pipeline's stages, then the
// epilogue's C tile.
CARBIDE_TILE_DEVICE unsigned char* dynamic_smem() {
  extern __shared__ __align__(128) unsigned char carbide_tile_dynamic_smem[];
  return carbide_tile_dynamic_smem;
}

// The pipelined k-loop into acc[mi][ni]; kEdge: zero-filled loads for a tile that crosses M, N or
// K (masks per 16-byte chunk), otherwise unmasked.
template <class Plan, bool kEdge>
CARBIDE_TILE_DEVICE void mainloop(mech::frag_acc (&acc)[Plan::kMmaM][Plan::kMmaN],
                                  const in_arg<typename Plan::element_type, 2>& a,
                                  const in_arg<typename Plan::element_type, 2>& b, int bm, int bn) {
  using T = typename Plan::element_type;
  using ATile = typename Plan::ATile;
  using BTile = typename Plan::BTile;
  constexpr int kBK = Plan::kBK, kStages = Plan::kStages, kThreads = Plan::kThreads;
  constexpr int kMI = Plan::kMmaM, kNI = Plan::kMmaN, kKSteps = kBK / 16;
  static_assert(kKSteps % 2 == 0, "two fragment buffers: their parity must repeat every k tile");
  static_assert(kNI % 2 == 0, "one ldmatrix.x4.trans feeds two n8 tiles");
  // The fragment addresses move by XOR steps within one 128-byte line (see swizzled_tile).
  static_assert(2 * (kKSteps - 1) < ATile::kXorChunks && 2 * (kNI / 2 - 1) < BTile::kXorChunks);
  // A warp's first B chunk is a multiple of kNI (its chunk span), so XOR by an even d < kNI is + d.
  static_assert((kNI & (kNI - 1)) == 0, "a warp's B chunk span is a power of two");

  const int m_size = int(a.extent[0]), k_size = int(a.extent[1]), n_size = int(b.extent[1]);
  const int lda = int(a.stride[0]), ldb = int(b.stride[0]);
  const int m0 = bm * Plan::kBM, n0 = bn * Plan::kBN;
  const std::uint32_t a_smem = mech::smem_address(dynamic_smem()), b_smem = a_smem + kStages * ATile::kBytes;

  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int warp_m = warp / Plan::kWarpsN, warp_n = warp % Plan::kWarpsN;

  // Staging: each thread's share of every k tile of A and B, one cp.async per 16 bytes.
  mech::tile_loader<ATile, kThreads, T> a_loader(a.data + std::ptrdiff_t(m0) * lda, lda, tid);
  mech::tile_loader<BTile, kThreads, T> b_loader(b.data + n0, ldb, tid);
  auto load_tile = [&](int stage, int k_tile) {  // consecutive k tiles only: the loaders advance
    const int k0 = k_tile * kBK;
    a_loader.template issue<kEdge>(a_smem + stage * ATile::kBytes, m_size - m0, k_size - k0, a.data);
    b_loader.template issue<kEdge>(b_smem + stage * BTile::kBytes, k_size - k0, n_size - n0, b.data);
    a_loader.advance(kBK);
    b_loader.advance(std::ptrdiff_t(kBK) * ldb);
  };

  // Fragment addresses: one offset per operand; the k step and the n8 pair are XOR steps of the
  // swizzle, the 16-row step of A and the k step of B are row steps.
  const std::uint32_t a_frag = ATile::element_offset(Plan::kWarpTileM * warp_m + mech::ldmatrix_x4_row(lane),
                                                     mech::ldmatrix_x4_col(lane));
  const std::uint32_t b_frag = BTile::element_offset(mech::ldmatrix_x4_row(lane),
                                                     Plan::kWarpTileN * warp_n + mech::ldmatrix_x4_col(lane));
  auto a_address = [&](int stage, int k_step, int mi) {
    return a_smem + stage * ATile::kBytes + (a_frag ^ ATile::chunk_xor(2 * k_step)) + ATile::row_step(16 * mi);
  };
  auto b_address = [&](int stage, int k_step, int nj) {
    return b_smem + stage * BTile::kBytes + (b_frag ^ BTile::chunk_xor(2 * nj)) + BTile::row_step(16 * k_step);
  };

#pragma unroll
  for (int mi = 0; mi < kMI; ++mi)
#pragma unroll
    for (int ni = 0; ni < kNI; ++ni) mech::zero(acc[mi][ni]);

  // Two fragment sets: the fragments of k step s+1 load while the mmas of step s run.
  mech::frag_a<T> af[2][kMI];
  mech::frag_b<T> bf[2][kNI];
  auto load_fragments = [&](int buffer, int stage, int k_step) {
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) mech::load_a(af[buffer][mi], a_address(stage, k_step, mi));
#pragma unroll
    for (int nj = 0; nj < kNI / 2; ++nj)
      mech::load_b_pair_trans(bf[buffer][2 * nj], bf[buffer][2 * nj + 1], b_address(stage, k_step, nj));
  };

  const int k_tiles = (k_size + kBK - 1) / kBK;
  // Prologue: kStages - 1 tiles in flight. Every slot commits a group, empty or not, so that
  // "at most kStages - 2 groups pending" always means "the next tile has landed".
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) load_tile(s, s);
    mech::cp_async_commit();
  }
  mech::cp_async_wait<kStages - 2>();
  __syncthreads();

  int read_stage = 0, write_stage = kStages - 1;
  load_fragments(0, 0, 0);
  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
#pragma unroll
    for (int k_step = 0; k_step < kKSteps; ++k_step) {
      // At the last k step, wait for the next stage and make every warp's copies visible before
      // its first fragments load; the barrier also proves every warp is done with the stage the
      // refill below overwrites.
      if (k_step == kKSteps - 1) {
        mech::cp_async_wait<kStages - 2>();
        __syncthreads();
        read_stage = read_stage + 1 == kStages ? 0 : read_stage + 1;
      }
      load_fragments((k_step + 1) % 2, read_stage, (k_step + 1) % kKSteps);
      if (k_step == 0) {
        if (k_tile + kStages - 1 < k_tiles) load_tile(write_stage, k_tile + kStages - 1);
        mech::cp_async_commit();
        write_stage = write_stage + 1 == kStages ? 0 : write_stage + 1;
      }
      const int buffer = k_step % 2;
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi)
#pragma unroll
        for (int nn = 0; nn < kNI; ++nn) {
          const int ni = mi % 2 ? kNI - 1 - nn : nn;  // serpentine: reuse the B fragment just used
          mech::mma(acc[mi][ni], af[buffer][mi], bf[buffer][ni]);
        }
    }
  }
  // No copy in flight and every warp past its last shared read: the epilogue may reuse the memory.
  mech::cp_async_wait<0>();
  __syncthreads();
}

// The whole k-loop over all of K for the block tile (bm, bn): the f32 accumulator fragment.
// Tiles inside M, N with K a multiple of BK take the unmasked loop; the branch is uniform.
template <class Plan>
CARBIDE_TILE_DEVICE frag<float, shape<Plan::kBM, Plan::kBN>, acc<Plan>> gemm_mainloop(
    const in_arg<typename Plan::element_type, 2>& a, const in_arg<typename Plan::element_type, 2>& b, int bm, int bn) {
  mech::frag_acc tiles[Plan::kMmaM][Plan::kMmaN];
  const bool whole = (bm + 1) * std::int64_t(Plan::kBM) <= a.extent[0] &&
                     (bn + 1) * std::int64_t(Plan::kBN) <= b.extent[1] && a.extent[1] % Plan::kBK == 0;
  if (whole)
    mainloop<Plan, false>(tiles, a, b, bm, bn);
  else
    mainloop<Plan, true>(tiles, a, b, bm, bn);
  frag<float, shape<Plan::kBM, Plan::kBN>, acc<Plan>> f;
#pragma unroll
  for (int mi = 0; mi < Plan::kMmaM; ++mi)
#pragma unroll
    for (int ni = 0; ni < Plan::kMmaN; ++ni)
#pragma unroll
      for (int r = 0; r < 4; ++r) f.v[(mi * Plan::kMmaN + ni) * 4 + r] = tiles[mi][ni].reg[r];
  return f;
}

}  // namespace carbide::tile::detail::sm80

namespace carbide::tile::detail {

// Two accumulator elements of one row and adjacent columns (f32, or cast to a 16-bit float) into
// `to` with one 8-byte or 4-byte store: how both plans' stores write their fragments.
template <class T>
CARBIDE_TILE_DEVICE void store_pair(T* to, T first, T second) {
  if constexpr (sizeof(T) == 2)
    *reinterpret_cast<std::uint32_t*>(to) = std::uint32_t(first.bits()) | std::uint32_t(second.bits()) << 16;
  else
    *reinterpret_cast<float2*>(to) = make_float2(first, second);
}

// A GEMM block's tile coordinates in grouped order, for either plan: blockIdx.x walks
// Plan::kGroupM block rows of one column group before moving to the next column (the last group
// may be shorter), so that a wave's A and B panels stay in L2. A batched GEMM (rank 3, one matrix
// a tile) walks each matrix's tiles so before the next matrix's.
template <class Plan>
CARBIDE_TILE_DEVICE void grouped_coord(int id, int tiles_m, int tiles_n, int& bm, int& bn) {
  const int per_group = Plan::kGroupM * tiles_n, group = id / per_group;
  const int first_m = group * Plan::kGroupM, group_rows = ::min(tiles_m - first_m, Plan::kGroupM);
  const int within = id % per_group;
  bm = first_m + within % group_rows;
  bn = within / group_rows;
}
template <class Plan, class T>
CARBIDE_TILE_DEVICE tile_coord<2> gemm_block_coord(const out_arg<T, 2>& out) {
  tile_coord<2> coord;
  grouped_coord<Plan>(blockIdx.x, int(out.tiles[0]), int(out.tiles[1]), coord.index[0], coord.index[1]);
  return coord;
}
template <class Plan, class T>
CARBIDE_TILE_DEVICE tile_coord<3> gemm_block_coord(const out_arg<T, 3>& out) {
  const int per_matrix = int(out.tiles[1] * out.tiles[2]);
  tile_coord<3> coord;
  coord.index[0] = int(blockIdx.x) / per_matrix;
  grouped_coord<Plan>(int(blockIdx.x) % per_matrix, int(out.tiles[1]), int(out.tiles[2]), coord.index[1], coord.index[2]);
  return coord;
}

// Matrix z of a batched (rank 3) tensor argument, as the rank-2 argument the main loops and the
// accumulator stores take.
template <class T>
CARBIDE_TILE_HD in_arg<T, 2> batch_slice(const in_arg<T, 3>& arg, int z) {
  return {arg.data + z * arg.stride[0], {arg.extent[1], arg.extent[2]}, {arg.stride[1], arg.stride[2]}, arg.aligned16};
}
template <class T>
CARBIDE_TILE_HD out_arg<T, 2> batch_slice(const out_arg<T, 3>& arg, int z) {
  return {arg.data + z * arg.stride[0], {arg.extent[1], arg.extent[2]}, {arg.stride[1], arg.stride[2]},
          {arg.tiles[1], arg.tiles[2]}, arg.aligned16};
}

// An accumulator-layout tile (f32, or cast to a 16-bit float) into `out` at `tile`: the fragments'
// element pairs into the padded C tile in shared memory, then 16-byte row chunks to global memory;
// chunks inside the tensor only, element by element where a chunk crosses its last column.
template <class T, class Plan, class Shape>
CARBIDE_TILE_DEVICE void store(const out_arg<T, 2>& out, const tile_coord<2>& tile, const frag<T, Shape, sm80::acc<Plan>>& f) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "16-bit or 32-bit elements");
  using L = layout_of<shape<Plan::kBM, Plan::kBN>, sm80::acc<Plan>>;
  constexpr int kStride = Plan::kCStride, kElemsPerChunk = 16 / int(sizeof(T)), kChunks = Plan::kBN / kElemsPerChunk;
  T* c_tile = reinterpret_cast<T*>(sm80::dynamic_smem());
  const int thread = threadIdx.x;

  __syncthreads();  // every warp is done with whatever the memory held before
#pragma unroll
  for (int i = 0; i < f.kCount; i += 2)  // elements i, i+1: one row, adjacent columns
    store_pair(c_tile + L::row(thread, i) * kStride + L::column(thread, i), f.v[i], f.v[i + 1]);
  __syncthreads();

  const std::int64_t row0 = std::int64_t(tile[0]) * Plan::kBM, col0 = std::int64_t(tile[1]) * Plan::kBN;
  const std::int64_t ld = out.stride[0];
  const bool whole = out.aligned16 && row0 + Plan::kBM <= out.extent[0] && col0 + Plan::kBN <= out.extent[1];
#pragma unroll
  for (int p = 0; p < Plan::kBM * kChunks / Plan::kThreads; ++p) {
    const int id = thread + p * Plan::kThreads, row = id / kChunks, chunk = id % kChunks;
    const T* from = c_tile + row * kStride + chunk * kElemsPerChunk;
    T* to = out.data + (row0 + row) * ld + col0 + chunk * kElemsPerChunk;  // aligned16: last stride 1
    if (whole) {
      *reinterpret_cast<uint4*>(to) = *reinterpret_cast<const uint4*>(from);
      continue;
    }
    const std::int64_t columns_left = out.extent[1] - col0 - chunk * kElemsPerChunk;
    if (row0 + row >= out.extent[0] || columns_left <= 0) continue;
    if (out.aligned16 && columns_left >= kElemsPerChunk) {
      *reinterpret_cast<uint4*>(to) = *reinterpret_cast<const uint4*>(from);
    } else {
      for (int j = 0; j < kElemsPerChunk && j < columns_left; ++j)
        out.data[(row0 + row) * ld + (col0 + chunk * kElemsPerChunk + j) * out.stride[1]] = from[j];
    }
  }
}
// A batched GEMM's tile (shape<1, BM, BN>) into its matrix of `out`.
template <class T, class Plan, class Shape>
CARBIDE_TILE_DEVICE void store(const out_arg<T, 3>& out, const tile_coord<3>& tile, const frag<T, Shape, sm80::acc<Plan>>& f) {
  store(batch_slice(out, tile[0]), tile_coord<2>{{tile[1], tile[2]}}, f);
}

}  // namespace carbide::tile::detail

#endif  // __CUDACC__
