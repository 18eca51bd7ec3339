// The Hopper form of the Tile path's GEMM (wgmma fed by TMA, warp-specialized), hand-written:
// measured by wgmma_tma_gemm.cu before any of it went into the translator, and the twin of the
// tile GEMM's sm_90a plan in carbide_bench (bench/wgmma_anchor.cu).
// Layout: A (M×K), B (K×N), C (M×N) row-major bf16, f32 accumulation, as the Tile path's
// `mma(pa.load(bm, k), pb.load(k, bn), acc)` sees them. Nothing is transposed in global memory:
// A is wgmma's K-major operand, B its N-major one (imm-trans-b).
// Block: one producer warpgroup (one thread issues the TMA copies of every k tile) and BM / 64
// consumer warpgroups (each owns 64 rows of the block tile and issues m64nBNk16 wgmmas). Stages
// ring through shared memory guarded by two mbarriers each: `full` (the TMA's transaction count
// arrives) and `empty` (every consumer warp has waited for its wgmmas on the stage).
// Shared tiles use the 128-byte swizzle that TMA writes and wgmma reads: A as BM rows of BK = 64
// elements (128 bytes); B as BN / 64 boxes of BK rows × 64 columns. Edges: TMA zero-fills what
// lies outside the tensor (partial M, N and K tiles cost nothing extra), the epilogue masks rows
// and columns. Preconditions: K % 8 == 0 and N % 8 == 0 (TMA's 16-byte row strides).
#pragma once

#include <cuda.h>

#include "gemm_harness.cuh"

namespace wgmma {

__device__ __forceinline__ std::uint32_t smem_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// --- mbarriers ---
__device__ __forceinline__ void barrier_init(std::uint32_t bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count));
}
__device__ __forceinline__ void barrier_expect_bytes(std::uint32_t bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void barrier_arrive(std::uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void barrier_wait(std::uint32_t bar, int parity) {
  std::uint32_t done = 0;
  do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

// --- TMA: one box of a 2-D tensor map into shared memory, counted on `bar` ---
__device__ __forceinline__ void tma_load(std::uint32_t dst, const CUtensorMap* map, std::uint32_t bar, int inner,
                                         int outer) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n" ::"r"(
          dst),
      "l"(map), "r"(bar), "r"(inner), "r"(outer)
      : "memory");
}

// --- wgmma ---
// A shared-memory matrix descriptor, 128-byte swizzle: start address, leading and stride byte
// offsets, all in 16-byte units (CUTLASS's GmmaDescriptor fields).
__device__ __forceinline__ std::uint64_t descriptor(std::uint32_t address, std::uint32_t leading,
                                                    std::uint32_t stride) {
  return std::uint64_t((address & 0x3FFFF) >> 4) | std::uint64_t((leading & 0x3FFFF) >> 4) << 16 |
         std::uint64_t((stride & 0x3FFFF) >> 4) << 32 | std::uint64_t(1) << 62;
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}
// D (64×128, f32) += A (64×16, K-major) · B (16×128, N-major: imm-trans-b 1), both in shared memory.
__device__ __forceinline__ void wgmma_m64n128k16(float (&d)[64], std::uint64_t a_desc, std::uint64_t b_desc) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
      "%64, %65, p, 1, 1, 0, 1;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(a_desc), "l"(b_desc), "r"(1));
}

// D (64×256, f32) += A (64×16, K-major) · B (16×256, N-major: imm-trans-b 1), both in shared memory.
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], std::uint64_t a_desc, std::uint64_t b_desc) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
      "%128, %129, p, 1, 1, 0, 1;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(a_desc), "l"(b_desc), "r"(1));
}

template <int BN>
__device__ __forceinline__ void wgmma_m64k16(float (&d)[BN / 2], std::uint64_t a_desc, std::uint64_t b_desc) {
  if constexpr (BN == 256)
    wgmma_m64n256k16(d, a_desc, b_desc);
  else
    wgmma_m64n128k16(d, a_desc, b_desc);
}

template <int kBM_, int kBN_, int kStages_>
struct Tiling {
  static constexpr int kBM = kBM_, kBN = kBN_, kBK = 64, kStages = kStages_;
  static constexpr int kConsumers = kBM / 64;  // warpgroups of 64 rows each
  static constexpr int kThreads = 128 * (kConsumers + 1);
  static constexpr int kABytes = kBM * kBK * 2, kBBoxBytes = kBK * 64 * 2, kBBytes = kBN / 64 * kBBoxBytes;
  static constexpr int kStageBytes = kABytes + kBBytes;
  // Stages, their 2 × kStages mbarriers, and slack to align the first stage to 1024 bytes (the
  // 128-byte swizzle repeats every 8 rows of 128 bytes; TMA and wgmma both assume that origin).
  static constexpr int kSmemBytes = kStages * kStageBytes + 2 * kStages * 8 + 1024;
  static constexpr int kGroupM = 8;
  static_assert(kBN == 128 || kBN == 256);
};

template <class T>
__global__ void __launch_bounds__(T::kThreads, 1)
    gemm_wgmma(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, bf16* c, int m,
               int n, int k) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  const std::uint32_t raw = smem_address(smem_raw);
  const std::uint32_t base = (raw + 1023) & ~1023u;
  const std::uint32_t a_tiles = base, b_tiles = base + T::kStages * T::kABytes;
  const std::uint32_t full = base + T::kStages * T::kStageBytes, empty = full + 8 * T::kStages;

  const int tiles_m = (m + T::kBM - 1) / T::kBM, tiles_n = (n + T::kBN - 1) / T::kBN;
  const int per_group = T::kGroupM * tiles_n, group = blockIdx.x / per_group;
  const int first_m = group * T::kGroupM, group_rows = min(tiles_m - first_m, T::kGroupM);
  const int within = blockIdx.x % per_group;
  const int m0 = (first_m + within % group_rows) * T::kBM, n0 = within / group_rows * T::kBN;
  const int k_tiles = (k + T::kBK - 1) / T::kBK;

  const int warpgroup = threadIdx.x / 128;
  if (threadIdx.x == 0) {
    for (int s = 0; s < T::kStages; ++s) {
      barrier_init(full + 8 * s, 1);
      barrier_init(empty + 8 * s, 4 * T::kConsumers);  // one arrival per consumer warp
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();

  if (warpgroup == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (threadIdx.x == 0) {
      for (int kt = 0; kt < k_tiles; ++kt) {
        const int s = kt % T::kStages, round = kt / T::kStages;
        if (round > 0) barrier_wait(empty + 8 * s, (round - 1) & 1);
        barrier_expect_bytes(full + 8 * s, T::kStageBytes);
        tma_load(a_tiles + s * T::kABytes, &a_map, full + 8 * s, kt * T::kBK, m0);
#pragma unroll
        for (int box = 0; box < T::kBN / 64; ++box)
          tma_load(b_tiles + s * T::kBBytes + box * T::kBBoxBytes, &b_map, full + 8 * s, n0 + 64 * box, kt * T::kBK);
      }
    }
    return;
  }

  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
  const int consumer = warpgroup - 1, lane = threadIdx.x % 32, warp = threadIdx.x / 32 % 4;
  float acc[T::kBN / 2];
#pragma unroll
  for (int i = 0; i < T::kBN / 2; ++i) acc[i] = 0.f;

  for (int kt = 0; kt < k_tiles; ++kt) {
    const int s = kt % T::kStages;
    barrier_wait(full + 8 * s, (kt / T::kStages) & 1);
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < T::kBK / 16; ++kk) {
      // A: this warpgroup's 64 rows, k step kk = 32 bytes into each 128-byte row (the swizzle is
      // applied to the address, so the step stays a plain offset). B: 16 rows of 128 bytes a k step;
      // its boxes of 64 columns lie kBBoxBytes apart (leading offset), 8-row groups 1024 apart.
      const std::uint64_t a_desc = descriptor(a_tiles + s * T::kABytes + consumer * 64 * 128 + kk * 32, 16, 1024);
      const std::uint64_t b_desc = descriptor(b_tiles + s * T::kBBytes + kk * 16 * 128, T::kBBoxBytes, 1024);
      wgmma_m64k16<T::kBN>(acc, a_desc, b_desc);
    }
    wgmma_commit();
    wgmma_wait<0>();
    __syncwarp();
    if (lane == 0) barrier_arrive(empty + 8 * s);
  }

  // Epilogue: the accumulator map of m64nNk16 (CUTLASS's CLayout_64xN): register i of a thread
  // holds row 16·warp + lane/4 + 8·(i/2 % 2), column 8·(i/4) + 2·(lane % 4) + i % 2.
  const int row_base = m0 + consumer * 64 + warp * 16 + lane / 4;
#pragma unroll
  for (int i = 0; i < T::kBN / 2; i += 2) {
    const int row = row_base + 8 * (i / 2 % 2), col = n0 + 8 * (i / 4) + 2 * (lane % 4);
    if (row < m && col < n)  // N % 8 == 0: col even, so col + 1 < n as well
      *reinterpret_cast<__nv_bfloat162*>(c + std::size_t(row) * n + col) = __floats2bfloat162_rn(acc[i], acc[i + 1]);
  }
}

// A 2-D tensor map of a row-major bf16 matrix (rows × columns, row stride `ld` elements) in boxes
// of box_rows × 64 columns with the 128-byte swizzle; out-of-range elements read as zero.
CUtensorMap tensor_map(const bf16* data, int rows, int columns, int ld, int box_rows) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {cuuint64_t(columns), cuuint64_t(rows)};
  const cuuint64_t strides[1] = {cuuint64_t(ld) * sizeof(bf16)};
  const cuuint32_t box[2] = {64, cuuint32_t(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult status = cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<bf16*>(data), dims, strides, box, element_strides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (status != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", int(status));
    std::exit(1);
  }
  return map;
}

template <class T>
void launch(const bf16* a, const bf16* b, bf16* c, int m, int n, int k) {
  static const bool configured = [] {
    CHECK_CUDA(cudaFuncSetAttribute(gemm_wgmma<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, T::kSmemBytes));
    return true;
  }();
  (void)configured;
  if (k % 8 || n % 8) {
    std::fprintf(stderr, "%dx%dx%d breaks K %% 8 == 0 and N %% 8 == 0\n", m, n, k);
    std::exit(1);
  }
  const CUtensorMap a_map = tensor_map(a, m, k, k, T::kBM), b_map = tensor_map(b, k, n, n, T::kBK);
  const int tiles = ((m + T::kBM - 1) / T::kBM) * ((n + T::kBN - 1) / T::kBN);
  gemm_wgmma<T><<<tiles, T::kThreads, T::kSmemBytes>>>(a_map, b_map, c, m, n, k);
}

template <class T>
int blocks_per_sm() {
  int blocks = 0;
  CHECK_CUDA(cudaFuncSetAttribute(gemm_wgmma<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, T::kSmemBytes));
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, gemm_wgmma<T>, T::kThreads, T::kSmemBytes));
  return blocks;
}

template <class T>
Variant make_variant(const char* name) {
  const int blocks = blocks_per_sm<T>();
  return {name, T::kBM, T::kBN, T::kBK, T::kThreads, T::kSmemBytes, launch<T>, launch<T>, blocks, blocks};
}

}  // namespace wgmma

