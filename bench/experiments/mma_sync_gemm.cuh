// Experiment, not part of the build: what a hand-written bf16 GEMM on the sm_80 instruction set
// (mma.sync m16n8k16, ldmatrix, a multi-stage cp.async k-loop) reaches on the H200, measured in
// one run against cublasGemmEx (bf16 in, bf16 out, f32 compute) and a device-to-device copy.
// Its best variant is the anchor for the Tile path's GEMM bars (>= 0.98 of it, >= 0.60 of cuBLAS).
//   (built and run by mma_sync_gemm.cu)
// Layout: A (M×K), B (K×N) and C (M×N) row-major bf16, f32 accumulation. B is kept row-major in
// shared memory and turned into mma's "col" operand by ldmatrix.trans, so nothing is transposed
// in global memory. Shared tiles are XOR-swizzled in 16-byte chunks so that every ldmatrix phase
// (8 rows, one chunk each) and every cp.async store hits 8 distinct bank groups.
// Preconditions: K % 8 == 0 and N % 8 == 0 (each row of A, B and C starts 16-byte aligned, which
// the 16-byte cp.async and the 16-byte C stores need); M is arbitrary. The fast path additionally
// needs M, N, K to be multiples of the block tile; the edge path masks loads with cp.async's
// src-size 0 zero-fill and guards the stores. Variants (block tile × BK, stages, warps): see the
// Tile* aliases; the anchor is the fastest fast path over 4096³ and 8192³ that passes. Correctness:
// small sizes against a float64 CPU product, large ones against cuBLAS, both by relative L2 and
// max error over max |reference|. Self-contained, so that it measures the same thing when rerun.
#pragma once

#include "gemm_harness.cuh"

namespace gemm {

// kFragmentBuffers 2: the fragments of k step s+1 are loaded while the mmas of step s run (costs
// a second set of fragment registers); 1: loads and mmas alternate, other warps hide the latency.
template <int kBM_, int kBN_, int kBK_, int kWarpsM_, int kWarpsN_, int kStages_, int kMinBlocks_,
          int kFragmentBuffers_>
struct Tiling {
  static constexpr int kBM = kBM_, kBN = kBN_, kBK = kBK_, kWarpsM = kWarpsM_, kWarpsN = kWarpsN_;
  static constexpr int kStages = kStages_, kMinBlocks = kMinBlocks_, kFragmentBuffers = kFragmentBuffers_;
  static constexpr int kThreads = 32 * kWarpsM * kWarpsN;
  static constexpr int kWarpTileM = kBM / kWarpsM, kWarpTileN = kBN / kWarpsN;
  static constexpr int kAStageBytes = kBM * kBK * 2, kBStageBytes = kBK * kBN * 2;
  static constexpr int kPipelineBytes = kStages * (kAStageBytes + kBStageBytes);
  // The epilogue reuses the pipeline's shared memory as a C tile padded by 8 elements a row,
  // which keeps both the fragment writes and the 16-byte row reads conflict-free.
  static constexpr int kCStride = kBN + 8;
  static constexpr int kEpilogueBytes = kBM * kCStride * 2;
  static constexpr int kSmemBytes = kPipelineBytes > kEpilogueBytes ? kPipelineBytes : kEpilogueBytes;
};

constexpr int kGroupM = 8;  // block rows swept together, so that a wave's A and B panels stay in L2

__device__ __forceinline__ unsigned smem_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// src-size 0 writes 16 zero bytes and reads nothing: the edge path's masked load. .cg: bypass L1,
// the operands are reused through shared memory only.
__device__ __forceinline__ void cp_async_16(unsigned dst, const void* src, bool valid) {
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// volatile: the same shared address is read again every kStages tiles, and a non-volatile asm
// could be merged across the barrier that separates those reads.
__device__ __forceinline__ void ldmatrix_x4(unsigned* r, unsigned address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned* r, unsigned address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}
__device__ __forceinline__ void mma_bf16(float* d, const unsigned* a, unsigned b0, unsigned b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Physical 16-byte chunk of logical chunk `chunk` in row `row` of a tile whose rows hold
// kChunks chunks. ldmatrix reads one chunk from each of 8 consecutive rows; they must land in 8
// distinct chunk positions modulo 128 bytes. Rows of >= 128 bytes: XOR the low 3 chunk bits with
// row % 8. Rows of 64 bytes (two per 128 bytes): row parity already separates the halves, so XOR
// the 2 chunk bits with (row / 2) % 4.
template <int kChunks>
__device__ __forceinline__ int swizzle(int row, int chunk) {
  static_assert(kChunks == 4 || kChunks % 8 == 0, "rows of 64 bytes or a multiple of 128 bytes");
  if constexpr (kChunks == 4)
    return chunk ^ ((row >> 1) & 3);
  else
    return chunk ^ (row & 7);
}

template <class T, bool kEdge>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks)
    gemm_bf16(const bf16* __restrict__ a, const bf16* __restrict__ b, bf16* __restrict__ c, int m_size, int n_size,
              int k_size) {
  constexpr int kBM = T::kBM, kBN = T::kBN, kBK = T::kBK, kStages = T::kStages, kThreads = T::kThreads;
  constexpr int kMI = T::kWarpTileM / 16, kNI = T::kWarpTileN / 8;  // mma tiles per warp
  constexpr int kKSteps = kBK / 16;
  constexpr int kAChunks = kBK / 8, kBChunks = kBN / 8;  // 16-byte chunks per shared row
  constexpr int kARowsPerPass = kThreads / kAChunks, kBRowsPerPass = kThreads / kBChunks;
  constexpr int kALoads = kBM * kAChunks / kThreads, kBLoads = kBK * kBChunks / kThreads;
  static_assert(kKSteps % 2 == 0, "fragment buffer parity must repeat every k tile");
  static_assert(kNI % 2 == 0 && T::kWarpTileM % 16 == 0, "one ldmatrix.x4.trans feeds two n8 tiles");
  static_assert(kALoads * kThreads == kBM * kAChunks && kBLoads * kThreads == kBK * kBChunks, "even loads");
  // A pass moves whole groups of 8 rows, so a thread's swizzle term is the same in every pass.
  static_assert(kARowsPerPass % 8 == 0 && kBRowsPerPass % 8 == 0, "swizzle invariant across passes");

  extern __shared__ __align__(128) unsigned char smem[];
  const unsigned a_smem = smem_address(smem), b_smem = a_smem + kStages * T::kAStageBytes;

  // Grouped rasterization: consecutive blocks walk down kGroupM block rows before moving right.
  const int tiles_m = (m_size + kBM - 1) / kBM, tiles_n = (n_size + kBN - 1) / kBN;
  const int per_group = kGroupM * tiles_n, group = blockIdx.x / per_group;
  const int first_m = group * kGroupM, group_rows = min(tiles_m - first_m, kGroupM);
  const int tile_m = first_m + (blockIdx.x % per_group) % group_rows;
  const int tile_n = (blockIdx.x % per_group) / group_rows;
  const int m0 = tile_m * kBM, n0 = tile_n * kBN;

  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int warp_m = warp / T::kWarpsN, warp_n = warp % T::kWarpsN;

  // Loader: pass i of this thread moves chunk a_chunk of A row a_row + i·kARowsPerPass (and the
  // same for B), so one running source pointer and one shared offset serve all passes.
  const int a_row = tid / kAChunks, a_chunk = tid % kAChunks;
  const int b_row = tid / kBChunks, b_chunk = tid % kBChunks;
  const bf16* a_source = a + size_t(m0 + a_row) * k_size + a_chunk * 8;  // advanced by kBK per tile
  const bf16* b_source = b + size_t(b_row) * n_size + n0 + b_chunk * 8;  // advanced by kBK rows per tile
  const int a_pass_stride = kARowsPerPass * k_size, b_pass_stride = kBRowsPerPass * n_size;
  const unsigned a_store = a_smem + (a_row * kAChunks + swizzle<kAChunks>(a_row, a_chunk)) * 16;
  const unsigned b_store = b_smem + (b_row * kBChunks + swizzle<kBChunks>(b_row, b_chunk)) * 16;
  const bool b_column_ok = !kEdge || n0 + b_chunk * 8 < n_size;

  // Called for consecutive k tiles only, which is what lets the source pointers simply advance.
  auto load_tile = [&](int stage, int k_tile) {
    const int k0 = k_tile * kBK;
    const bool a_k_ok = !kEdge || k0 + a_chunk * 8 < k_size;
#pragma unroll
    for (int i = 0; i < kALoads; ++i) {
      const bool ok = !kEdge || (a_k_ok && m0 + a_row + i * kARowsPerPass < m_size);
      cp_async_16(a_store + stage * T::kAStageBytes + i * kARowsPerPass * kBK * 2, ok ? a_source + i * a_pass_stride : a,
                  ok);
    }
#pragma unroll
    for (int i = 0; i < kBLoads; ++i) {
      const bool ok = !kEdge || (b_column_ok && k0 + b_row + i * kBRowsPerPass < k_size);
      cp_async_16(b_store + stage * T::kBStageBytes + i * kBRowsPerPass * kBN * 2, ok ? b_source + i * b_pass_stride : b,
                  ok);
    }
    a_source += kBK;
    b_source += size_t(kBK) * n_size;
  };

  // Fragment addresses. A, ldmatrix.x4: lanes 0–15 give rows 0–15 at k 0–7, lanes 16–31 the same
  // rows at k 8–15, which yields a0..a3 of m16n8k16 in order. B, ldmatrix.x4.trans on k-major rows:
  // lanes 0–15 give k rows 0–15 at n 0–7, lanes 16–31 at n 8–15: {b0,b1} of two n8 tiles.
  // Only one offset per operand is kept live: moving 16 rows (A's next mi, B's next k step) leaves
  // the swizzle term unchanged, and moving by 2 logical chunks (A's next k step, B's next pair of
  // n8 tiles) flips disjoint chunk bits, so it is an XOR of 32 on the byte offset.
  static_assert(kBK <= 64 && T::kWarpTileN <= 64, "the XOR steps below stay within 8 chunks");
  const int frag_row = lane % 16, frag_half = lane / 16;
  const int a_frag_row = warp_m * T::kWarpTileM + frag_row;
  const unsigned a_frag_offset = (a_frag_row * kAChunks + swizzle<kAChunks>(a_frag_row, frag_half)) * 16;
  const int b_frag_chunk = warp_n * T::kWarpTileN / 8 + frag_half;
  const unsigned b_frag_offset = (frag_row * kBChunks + swizzle<kBChunks>(frag_row, b_frag_chunk)) * 16;
  auto a_fragment_address = [&](int stage, int k_step, int mi) {
    return a_smem + stage * T::kAStageBytes + (a_frag_offset ^ (k_step * 32)) + mi * 16 * kBK * 2;
  };
  auto b_fragment_address = [&](int stage, int k_step, int nj) {
    return b_smem + stage * T::kBStageBytes + (b_frag_offset ^ (nj * 32)) + k_step * 16 * kBN * 2;
  };

  float accumulator[kMI][kNI][4];
#pragma unroll
  for (int mi = 0; mi < kMI; ++mi)
#pragma unroll
    for (int ni = 0; ni < kNI; ++ni)
#pragma unroll
      for (int r = 0; r < 4; ++r) accumulator[mi][ni][r] = 0.f;

  constexpr int kBuffers = T::kFragmentBuffers;
  static_assert(kBuffers == 1 || kBuffers == 2, "one or two fragment register sets");
  unsigned a_frag[kBuffers][kMI][4], b_frag[kBuffers][kNI / 2][4];
  auto load_fragments = [&](int buffer, int stage, int k_step) {
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) ldmatrix_x4(a_frag[buffer][mi], a_fragment_address(stage, k_step, mi));
#pragma unroll
    for (int nj = 0; nj < kNI / 2; ++nj) ldmatrix_x4_trans(b_frag[buffer][nj], b_fragment_address(stage, k_step, nj));
  };

  const int k_tiles = (k_size + kBK - 1) / kBK;
  // Prologue: kStages - 1 tiles in flight. Every slot commits a group, empty or not, so that
  // "wait until at most kStages - 2 groups are pending" always means "the next tile has landed".
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) load_tile(s, s);
    cp_async_commit();
  }
  cp_async_wait<kStages - 2>();
  __syncthreads();

  int read_stage = 0, write_stage = kStages - 1;
  if (kBuffers == 2) load_fragments(0, 0, 0);
  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
#pragma unroll
    for (int k_step = 0; k_step < kKSteps; ++k_step) {
      // Wait for the next stage's copies and make every warp's copies visible, one step before
      // its first fragments are loaded (the last step with two buffers, the first step of the next
      // tile with one). The barrier also proves that every warp has issued its last ldmatrix of
      // the stage consumed before it, which the refill below overwrites.
      if (kBuffers == 2 ? k_step == kKSteps - 1 : k_step == 0 && k_tile > 0) {
        cp_async_wait<kStages - 2>();
        __syncthreads();
        read_stage = read_stage + 1 == kStages ? 0 : read_stage + 1;
      }
      if (kBuffers == 2)
        load_fragments((k_step + 1) % 2, read_stage, (k_step + 1) % kKSteps);
      else
        load_fragments(0, read_stage, k_step);
      if (k_step == 0) {
        // Refill the stage consumed in the previous tile (all of its reads preceded the barrier).
        if (k_tile + kStages - 1 < k_tiles) load_tile(write_stage, k_tile + kStages - 1);
        cp_async_commit();
        write_stage = write_stage + 1 == kStages ? 0 : write_stage + 1;
      }
      const int buffer = k_step % kBuffers;
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi)
#pragma unroll
        for (int nn = 0; nn < kNI; ++nn) {
          const int ni = mi % 2 ? kNI - 1 - nn : nn;  // serpentine: reuse the B fragment just used
          mma_bf16(accumulator[mi][ni], a_frag[buffer][mi], b_frag[buffer][ni / 2][(ni % 2) * 2],
                   b_frag[buffer][ni / 2][(ni % 2) * 2 + 1]);
        }
    }
  }

  // Epilogue: accumulators (c0,c1 at row lane/4, columns 2·(lane%4)+{0,1}; c2,c3 eight rows lower)
  // go to a shared C tile as bf16 pairs, then leave as coalesced 16-byte row segments.
  cp_async_wait<0>();
  __syncthreads();
  bf16* c_tile = reinterpret_cast<bf16*>(smem);
#pragma unroll
  for (int mi = 0; mi < kMI; ++mi)
#pragma unroll
    for (int ni = 0; ni < kNI; ++ni) {
      const int row = warp_m * T::kWarpTileM + mi * 16 + lane / 4;
      const int column = warp_n * T::kWarpTileN + ni * 8 + (lane % 4) * 2;
      *reinterpret_cast<__nv_bfloat162*>(c_tile + row * T::kCStride + column) =
          __floats2bfloat162_rn(accumulator[mi][ni][0], accumulator[mi][ni][1]);
      *reinterpret_cast<__nv_bfloat162*>(c_tile + (row + 8) * T::kCStride + column) =
          __floats2bfloat162_rn(accumulator[mi][ni][2], accumulator[mi][ni][3]);
    }
  __syncthreads();
  constexpr int kCChunks = kBN / 8;
#pragma unroll
  for (int i = 0; i < kBM * kCChunks / kThreads; ++i) {
    const int id = tid + i * kThreads, row = id / kCChunks, chunk = id % kCChunks;
    const int global_row = m0 + row, global_column = n0 + chunk * 8;
    if (!kEdge || (global_row < m_size && global_column < n_size))
      *reinterpret_cast<uint4*>(c + size_t(global_row) * n_size + global_column) =
          *reinterpret_cast<const uint4*>(c_tile + row * T::kCStride + chunk * 8);
  }
}

template <class T, bool kEdge>
void launch(const bf16* a, const bf16* b, bf16* c, int m, int n, int k) {
  static const bool configured = [] {
    CHECK_CUDA(cudaFuncSetAttribute(gemm_bf16<T, kEdge>, cudaFuncAttributeMaxDynamicSharedMemorySize, T::kSmemBytes));
    CHECK_CUDA(cudaFuncSetAttribute(gemm_bf16<T, kEdge>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    int(cudaSharedmemCarveoutMaxShared)));
    return true;
  }();
  (void)configured;
  if (k % 8 || n % 8 || (!kEdge && (m % T::kBM || n % T::kBN || k % T::kBK))) {
    std::fprintf(stderr, "%dx%dx%d breaks the %s path's preconditions\n", m, n, k, kEdge ? "edge" : "fast");
    std::exit(1);
  }
  const int tiles = ((m + T::kBM - 1) / T::kBM) * ((n + T::kBN - 1) / T::kBN);
  gemm_bf16<T, kEdge><<<tiles, T::kThreads, T::kSmemBytes>>>(a, b, c, m, n, k);
}

template <class T, bool kEdge>
int blocks_per_sm() {
  int blocks = 0;
  CHECK_CUDA(cudaFuncSetAttribute(gemm_bf16<T, kEdge>, cudaFuncAttributeMaxDynamicSharedMemorySize, T::kSmemBytes));
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, gemm_bf16<T, kEdge>, T::kThreads, T::kSmemBytes));
  return blocks;
}

}  // namespace gemm

namespace {

// 128×128×32, 4 stages, 8 warps of 64×32, two blocks an SM: 128 registers a thread, which only
// one fragment set fits into without spilling.
using Tile128x128x32w8 = gemm::Tiling<128, 128, 32, 2, 4, 4, 2, 1>;
// 128×128×32, 4 stages, 4 warps of 64×64, two blocks an SM: CUTLASS's usual sm80 shape.
using Tile128x128x32w4 = gemm::Tiling<128, 128, 32, 2, 2, 4, 2, 2>;
// 128×256×32 and 256×128×32, 3 stages, 8 warps of 64×64 (the best mma-to-ldmatrix ratio), one
// block an SM.
using Tile128x256x32 = gemm::Tiling<128, 256, 32, 2, 4, 3, 1, 2>;
using Tile256x128x32 = gemm::Tiling<256, 128, 32, 4, 2, 3, 1, 2>;
// 128×256×64, 3 stages: CUTLASS's default sm80 bf16 tile, half the barriers per k.
using Tile128x256x64 = gemm::Tiling<128, 256, 64, 2, 4, 3, 1, 2>;

template <class T>
Variant make_variant(const char* name) {
  return {name,
          T::kBM,
          T::kBN,
          T::kBK,
          T::kThreads,
          T::kSmemBytes,
          gemm::launch<T, false>,
          gemm::launch<T, true>,
          gemm::blocks_per_sm<T, false>(),
          gemm::blocks_per_sm<T, true>()};
}


}  // namespace
