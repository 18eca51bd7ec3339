// Warpgroup tensor-core mechanisms of sm_90a (Hopper): wgmma.mma_async with both operands in
// shared memory, the shared-memory matrix descriptors it reads them through, TMA tensor copies
// (cp.async.bulk.tensor) into the 128-byte swizzle wgmma expects, and the mbarriers that count
// the copies' bytes. The GEMM main loop built from them is gemm_sm90.hpp.
//
// Names follow the PTX ISA: "Asynchronous Warpgroup Level Matrix Multiply-Accumulate" (wgmma,
// its descriptors and the m64nNk16 accumulator fragment), "Tensor Copy" (cp.async.bulk.tensor),
// "mbarrier". The descriptor fields and the N-major canonical layout are CUTLASS's
// (cute/atom/mma_traits_sm90_gmma.hpp, make_gmma_desc). The fragment map is host-visible for the
// planner and the host tests; everything that issues an instruction needs sm_90a
// (-gencode=arch=compute_90a,code=sm_90a), which the planner chooses only for such builds.
#pragma once

#include <carbide/tile/types.hpp>

#include <cstdint>

namespace carbide::tile::sm90 {

// The accumulator of wgmma m64nNk16 (f32), held by the 128 threads of a warpgroup: thread t
// (warp w = t / 32, lane l) holds N / 2 values, value i at row 16w + l/4 + 8·(i/2 % 2) and column
// 8·(i/4) + 2·(l % 4) + i % 2 (the m16n8 C map of mma.sync, repeated along N).
struct m64nk16_accumulator {
  static CARBIDE_TILE_CONSTEXPR int row(int thread, int i) { return thread / 32 * 16 + thread % 32 / 4 + 8 * (i / 2 % 2); }
  static CARBIDE_TILE_CONSTEXPR int column(int thread, int i) { return 8 * (i / 4) + 2 * (thread % 4) + i % 2; }
};

// The 128-byte swizzle of TMA and wgmma: rows of 128 bytes, 16-byte chunk c of row r stored at
// chunk c ^ (r % 8); the pattern repeats every 8 rows (1024 bytes), so a tile starts 1024-aligned.
constexpr int kSwizzleBytes = 128, kSwizzleAtomBytes = 1024;

// A shared-memory matrix descriptor with the 128-byte swizzle: start address, leading and stride
// byte offsets, each in 16-byte units. K-major (A): 8-row groups `stride` apart, `leading` unused.
// N-major (B): 64-element column groups `leading` apart, 8-row k groups `stride` apart.
CARBIDE_TILE_CONSTEXPR std::uint64_t descriptor(std::uint32_t address, std::uint32_t leading, std::uint32_t stride) {
  return std::uint64_t((address & 0x3FFFF) >> 4) | std::uint64_t((leading & 0x3FFFF) >> 4) << 16 |
         std::uint64_t((stride & 0x3FFFF) >> 4) << 32 | std::uint64_t(1) << 62;
}

}  // namespace carbide::tile::sm90

#if defined(__CUDACC__)

#include <cuda/ptx>

// D (64×128, f32) += A (64×16, K-major) · B (16×128, N-major), both in shared memory; TYPE is
// the inputs' PTX type ("bf16" or "f16").
#define CARBIDE_TILE_WGMMA_M64N128K16(TYPE, d, a_desc, b_desc) \
  asm volatile( \
      "{\n" \
      ".reg .pred p;\n" \
      "setp.ne.b32 p, %66, 0;\n" \
      "wgmma.mma_async.sync.aligned.m64n128k16.f32." TYPE "." TYPE " " \
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, " \
      "%64, %65, p, 1, 1, 0, 1;\n" \
      "}\n" \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), \
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]) \
      : "l"(a_desc), "l"(b_desc), "r"(1))

// D (64×256, f32) += A (64×16, K-major) · B (16×256, N-major), both in shared memory; TYPE is
// the inputs' PTX type ("bf16" or "f16").
#define CARBIDE_TILE_WGMMA_M64N256K16(TYPE, d, a_desc, b_desc) \
  asm volatile( \
      "{\n" \
      ".reg .pred p;\n" \
      "setp.ne.b32 p, %130, 0;\n" \
      "wgmma.mma_async.sync.aligned.m64n256k16.f32." TYPE "." TYPE " " \
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, " \
      "%128, %129, p, 1, 1, 0, 1;\n" \
      "}\n" \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), \
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), \
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), \
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), \
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), \
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), \
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), \
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), \
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), \
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127]) \
      : "l"(a_desc), "l"(b_desc), "r"(1))

namespace carbide::tile::sm90 {

CARBIDE_TILE_DEVICE std::uint32_t smem_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// The mbarriers and the TMA copy are CCCL's cuda::ptx wrappers; wgmma has none (inline PTX above).
// An mbarrier expecting `count` arrivals a phase.
CARBIDE_TILE_DEVICE void barrier_init(std::uint64_t* bar, std::uint32_t count) { ::cuda::ptx::mbarrier_init(bar, count); }
// Makes initialized barriers visible to the async proxy (TMA); a __syncthreads() follows.
CARBIDE_TILE_DEVICE void barrier_init_fence() {
  ::cuda::ptx::fence_mbarrier_init(::cuda::ptx::sem_release, ::cuda::ptx::scope_cluster);
}
// One arrival that also expects `bytes` more from copies completing on this barrier.
CARBIDE_TILE_DEVICE void barrier_expect_bytes(std::uint64_t* bar, std::uint32_t bytes) {
  ::cuda::ptx::mbarrier_arrive_expect_tx(::cuda::ptx::sem_release, ::cuda::ptx::scope_cta, ::cuda::ptx::space_shared,
                                         bar, bytes);
}
CARBIDE_TILE_DEVICE void barrier_arrive(std::uint64_t* bar) { ::cuda::ptx::mbarrier_arrive(bar); }
// Waits until the phase of parity `parity` has completed.
CARBIDE_TILE_DEVICE void barrier_wait(std::uint64_t* bar, std::uint32_t parity) {
  while (!::cuda::ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}

// One box of a 2-D tensor map (inner coordinate first) into shared memory at `dst`; its bytes
// complete on `bar`. Elements outside the tensor arrive as zeros.
CARBIDE_TILE_DEVICE void tma_load(void* dst, const void* map, std::uint64_t* bar, int inner, int outer) {
  const std::int32_t coordinates[2] = {inner, outer};
  ::cuda::ptx::cp_async_bulk_tensor(::cuda::ptx::space_cluster, ::cuda::ptx::space_global, dst, map, coordinates, bar);
}

CARBIDE_TILE_DEVICE void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
CARBIDE_TILE_DEVICE void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int kPending>
CARBIDE_TILE_DEVICE void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}

// D (64×N) += A (64×16) · B (16×N) for the element type T (bf16 or f16) and N of 128 or 256.
template <class T, int N>
CARBIDE_TILE_DEVICE void mma_m64k16(float (&d)[N / 2], std::uint64_t a_desc, std::uint64_t b_desc) {
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
  static_assert(N == 0, "wgmma needs sm_90a: translate with --cuda-arch sm_90a only");
#endif
  static_assert(N == 128 || N == 256, "the wgmma atoms here are n128 and n256");
  constexpr bool kBf16 = std::is_same_v<T, bf16>;
  static_assert(kBf16 || std::is_same_v<T, f16>, "wgmma takes bf16 or f16 here");
  if constexpr (N == 256 && kBf16)
    CARBIDE_TILE_WGMMA_M64N256K16("bf16", d, a_desc, b_desc);
  else if constexpr (N == 256)
    CARBIDE_TILE_WGMMA_M64N256K16("f16", d, a_desc, b_desc);
  else if constexpr (kBf16)
    CARBIDE_TILE_WGMMA_M64N128K16("bf16", d, a_desc, b_desc);
  else
    CARBIDE_TILE_WGMMA_M64N128K16("f16", d, a_desc, b_desc);
}

}  // namespace carbide::tile::sm90

#endif  // __CUDACC__
