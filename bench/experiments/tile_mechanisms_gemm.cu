// Experiment, not part of the build: a bf16 GEMM written only with the Tile path's device
// mechanisms (runtime/include/carbide/tile/{types,mma,copy}.hpp) plus the glue an emitter would
// generate (block rasterization, the k-loop's stage rotation, the epilogue's row copies), measured
// in one run against the hand-written anchor (bench/experiments/mma_sync_gemm.cu, included below
// unchanged, its 128×256×64 variant) and cublasGemmEx (bf16 in/out, f32 compute).
//   nvcc -O3 -std=c++17 -arch=sm_90 -I runtime/include bench/experiments/tile_mechanisms_gemm.cu -lcublas -o tile_gemm && ./tile_gemm
// Layout as the anchor: A (M×K), B (K×N), C (M×N) row-major bf16, f32 accumulation; K % 8 == 0 and
// N % 8 == 0. The fast path needs M, N, K multiples of the block tile; the edge path masks loads
// (cp.async zero-fill) and stores. Correctness: small odd sizes against a float64 CPU product (the
// anchor's check_against_cpu), large sizes against cuBLAS (relative L2, max error / max |ref|).
// Timing: every kernel of a size is warmed up, then timed one launch at a time in interleaved
// rounds (cuBLAS, anchor, mechanisms, ...), so clock drift hits them alike; medians are reported.

// The anchor, verbatim: its kernel, launcher, problem set-up, cuBLAS call and CPU check are reused;
// its own main() is renamed out of the way (never called).
#define main mma_sync_gemm_main
#include "mma_sync_gemm.cu"
#undef main

#include <carbide/tile/copy.hpp>
#include <carbide/tile/mma.hpp>
#include <carbide/tile/types.hpp>

#include <string>

namespace ct = carbide::tile;
namespace sm80 = carbide::tile::sm80;

namespace mech {

// The choices the planner would make for one GEMM instantiation (block tile, k depth, warps,
// pipeline stages) and what follows from them.
template <int kBM_, int kBN_, int kBK_, int kWarpsM_, int kWarpsN_, int kStages_, int kMinBlocks_>
struct Plan {
  static constexpr int kBM = kBM_, kBN = kBN_, kBK = kBK_, kWarpsM = kWarpsM_, kWarpsN = kWarpsN_;
  static constexpr int kStages = kStages_, kMinBlocks = kMinBlocks_;
  static constexpr int kThreads = 32 * kWarpsM * kWarpsN;
  static constexpr int kWarpTileM = kBM / kWarpsM, kWarpTileN = kBN / kWarpsN;
  using ATile = ct::swizzled_tile<kBM, kBK, ct::bf16>;  // one stage of A, (m, k)
  using BTile = ct::swizzled_tile<kBK, kBN, ct::bf16>;  // one stage of B, (k, n)
  static constexpr int kPipelineBytes = kStages * (ATile::kBytes + BTile::kBytes);
  static constexpr int kCStride = kBN + 8;  // epilogue C tile, padded a row: conflict-free both ways
  static constexpr int kEpilogueBytes = kBM * kCStride * 2;
  static constexpr int kSmemBytes = kPipelineBytes > kEpilogueBytes ? kPipelineBytes : kEpilogueBytes;
};

constexpr int kGroupM = 8;  // block rows swept together so that a wave's A and B panels stay in L2

template <class P, bool kEdge>
__global__ void __launch_bounds__(P::kThreads, P::kMinBlocks)
    gemm(const ct::bf16* __restrict__ a, const ct::bf16* __restrict__ b, ct::bf16* __restrict__ c, int m_size,
         int n_size, int k_size) {
  using ATile = typename P::ATile;
  using BTile = typename P::BTile;
  constexpr int kBM = P::kBM, kBN = P::kBN, kBK = P::kBK, kStages = P::kStages, kThreads = P::kThreads;
  constexpr int kMI = P::kWarpTileM / 16, kNI = P::kWarpTileN / 8, kKSteps = kBK / 16;  // mma tiles a warp
  static_assert(kKSteps % 2 == 0, "two fragment buffers: their parity must repeat every k tile");
  static_assert(kNI % 2 == 0, "one ldmatrix.x4.trans feeds two n8 tiles");
  // The fragment addresses move by XOR steps within one 128-byte line (see swizzled_tile).
  static_assert(2 * (kKSteps - 1) < ATile::kXorChunks && 2 * (kNI / 2 - 1) < BTile::kXorChunks);
  // A warp's first B chunk is a multiple of kNI (its chunk span), so XOR by an even d < kNI is + d.
  static_assert((kNI & (kNI - 1)) == 0, "a warp's B chunk span is a power of two");

  extern __shared__ __align__(128) unsigned char smem[];
  const std::uint32_t a_smem = sm80::smem_address(smem), b_smem = a_smem + kStages * ATile::kBytes;

  // Grouped rasterization: consecutive blocks walk down kGroupM block rows before moving right.
  const int tiles_m = (m_size + kBM - 1) / kBM, tiles_n = (n_size + kBN - 1) / kBN;
  const int per_group = kGroupM * tiles_n, group = blockIdx.x / per_group;
  const int first_m = group * kGroupM, group_rows = min(tiles_m - first_m, kGroupM);
  const int m0 = (first_m + (blockIdx.x % per_group) % group_rows) * kBM;
  const int n0 = ((blockIdx.x % per_group) / group_rows) * kBN;

  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int warp_m = warp / P::kWarpsN, warp_n = warp % P::kWarpsN;

  // Staging: each thread's share of every k tile of A and B, one cp.async per 16 bytes.
  sm80::tile_loader<ATile, kThreads, ct::bf16> a_loader(a + std::size_t(m0) * k_size, k_size, tid);
  sm80::tile_loader<BTile, kThreads, ct::bf16> b_loader(b + n0, n_size, tid);
  auto load_tile = [&](int stage, int k_tile) {  // consecutive k tiles only: the loaders advance
    const int k0 = k_tile * kBK;
    a_loader.template issue<kEdge>(a_smem + stage * ATile::kBytes, m_size - m0, k_size - k0, a);
    b_loader.template issue<kEdge>(b_smem + stage * BTile::kBytes, k_size - k0, n_size - n0, b);
    a_loader.advance(kBK);
    b_loader.advance(std::ptrdiff_t(kBK) * n_size);
  };

  // Fragment addresses: one offset per operand; the k step and the n8 pair are XOR steps of the
  // swizzle, the 16-row step of A and the k step of B are row steps.
  const std::uint32_t a_frag = ATile::element_offset(P::kWarpTileM * warp_m + sm80::ldmatrix_x4_row(lane),
                                                     sm80::ldmatrix_x4_col(lane));
  const std::uint32_t b_frag = BTile::element_offset(sm80::ldmatrix_x4_row(lane),
                                                     P::kWarpTileN * warp_n + sm80::ldmatrix_x4_col(lane));
  auto a_address = [&](int stage, int k_step, int mi) {
    return a_smem + stage * ATile::kBytes + (a_frag ^ ATile::chunk_xor(2 * k_step)) + ATile::row_step(16 * mi);
  };
  auto b_address = [&](int stage, int k_step, int nj) {
    return b_smem + stage * BTile::kBytes + (b_frag ^ BTile::chunk_xor(2 * nj)) + BTile::row_step(16 * k_step);
  };

  sm80::frag_acc acc[kMI][kNI];
#pragma unroll
  for (int mi = 0; mi < kMI; ++mi)
#pragma unroll
    for (int ni = 0; ni < kNI; ++ni) sm80::zero(acc[mi][ni]);

  // Two fragment sets: the fragments of k step s+1 load while the mmas of step s run.
  sm80::frag_a<ct::bf16> af[2][kMI];
  sm80::frag_b<ct::bf16> bf[2][kNI];
  auto load_fragments = [&](int buffer, int stage, int k_step) {
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) sm80::load_a(af[buffer][mi], a_address(stage, k_step, mi));
#pragma unroll
    for (int nj = 0; nj < kNI / 2; ++nj)
      sm80::load_b_pair_trans(bf[buffer][2 * nj], bf[buffer][2 * nj + 1], b_address(stage, k_step, nj));
  };

  const int k_tiles = (k_size + kBK - 1) / kBK;
  // Prologue: kStages - 1 tiles in flight. Every slot commits a group, empty or not, so that
  // "at most kStages - 2 groups pending" always means "the next tile has landed".
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) load_tile(s, s);
    sm80::cp_async_commit();
  }
  sm80::cp_async_wait<kStages - 2>();
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
        sm80::cp_async_wait<kStages - 2>();
        __syncthreads();
        read_stage = read_stage + 1 == kStages ? 0 : read_stage + 1;
      }
      load_fragments((k_step + 1) % 2, read_stage, (k_step + 1) % kKSteps);
      if (k_step == 0) {
        if (k_tile + kStages - 1 < k_tiles) load_tile(write_stage, k_tile + kStages - 1);
        sm80::cp_async_commit();
        write_stage = write_stage + 1 == kStages ? 0 : write_stage + 1;
      }
      const int buffer = k_step % 2;
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi)
#pragma unroll
        for (int nn = 0; nn < kNI; ++nn) {
          const int ni = mi % 2 ? kNI - 1 - nn : nn;  // serpentine: reuse the B fragment just used
          sm80::mma(acc[mi][ni], af[buffer][mi], bf[buffer][ni]);
        }
    }
  }

  // Epilogue: accumulators to a padded shared C tile as bf16 pairs, then coalesced 16-byte rows.
  sm80::cp_async_wait<0>();
  __syncthreads();
  ct::bf16* c_tile = reinterpret_cast<ct::bf16*>(smem);
#pragma unroll
  for (int mi = 0; mi < kMI; ++mi)
#pragma unroll
    for (int ni = 0; ni < kNI; ++ni)
      sm80::store_acc(acc[mi][ni], c_tile, P::kCStride, warp_m * P::kWarpTileM + mi * 16,
                      warp_n * P::kWarpTileN + ni * 8);
  __syncthreads();
  constexpr int kCChunks = kBN / 8;
#pragma unroll
  for (int i = 0; i < kBM * kCChunks / kThreads; ++i) {
    const int id = tid + i * kThreads, row = id / kCChunks, chunk = id % kCChunks;
    const int global_row = m0 + row, global_column = n0 + chunk * 8;
    if (!kEdge || (global_row < m_size && global_column < n_size))
      *reinterpret_cast<uint4*>(c + std::size_t(global_row) * n_size + global_column) =
          *reinterpret_cast<const uint4*>(c_tile + row * P::kCStride + chunk * 8);
  }
}

// Host glue with the anchor's launcher signature (its bf16 is __nv_bfloat16, layout-identical).
template <class P, bool kEdge>
void launch(const bf16* a, const bf16* b, bf16* c, int m, int n, int k) {
  static const bool configured = [] {
    CHECK_CUDA(cudaFuncSetAttribute(gemm<P, kEdge>, cudaFuncAttributeMaxDynamicSharedMemorySize, P::kSmemBytes));
    CHECK_CUDA(cudaFuncSetAttribute(gemm<P, kEdge>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    int(cudaSharedmemCarveoutMaxShared)));
    return true;
  }();
  (void)configured;
  if (k % 8 || n % 8 || (!kEdge && (m % P::kBM || n % P::kBN || k % P::kBK))) {
    std::fprintf(stderr, "%dx%dx%d breaks the %s path's preconditions\n", m, n, k, kEdge ? "edge" : "fast");
    std::exit(1);
  }
  const int tiles = ((m + P::kBM - 1) / P::kBM) * ((n + P::kBN - 1) / P::kBN);
  gemm<P, kEdge><<<tiles, P::kThreads, P::kSmemBytes>>>(reinterpret_cast<const ct::bf16*>(a),
                                                        reinterpret_cast<const ct::bf16*>(b),
                                                        reinterpret_cast<ct::bf16*>(c), m, n, k);
}

template <class P, bool kEdge>
int blocks_per_sm() {
  int blocks = 0;
  CHECK_CUDA(cudaFuncSetAttribute(gemm<P, kEdge>, cudaFuncAttributeMaxDynamicSharedMemorySize, P::kSmemBytes));
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, gemm<P, kEdge>, P::kThreads, P::kSmemBytes));
  return blocks;
}

template <class P>
Variant make_variant(const char* name) {
  return {name,          P::kBM, P::kBN, P::kBK, P::kThreads, P::kSmemBytes, launch<P, false>, launch<P, true>,
          blocks_per_sm<P, false>(), blocks_per_sm<P, true>()};
}

// The anchor's best tile (128×256×64, 3 stages, 8 warps of 64×64, one block an SM), and the same
// with 4 stages (196,608 bytes of shared memory; the anchor did not try it).
using Plan128x256x64s3 = Plan<128, 256, 64, 2, 4, 3, 1>;
using Plan128x256x64s4 = Plan<128, 256, 64, 2, 4, 4, 1>;

}  // namespace mech

namespace {

struct Timed {
  const char* name;
  const char* path;
  std::function<void()> launch;
  std::vector<float> ms;
  double median() const {
    std::vector<float> s = ms;
    std::sort(s.begin(), s.end());
    return s[s.size() / 2];
  }
};

// Every kernel warmed up, then `rounds` rounds that time each kernel once, in the same order.
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

struct Row {
  std::string size, path;
  double cublas, anchor, mech, mech_s4;  // TFLOP/s
  bool pass;
};

// One size: each kernel's result checked against cuBLAS (C poisoned first), then timed together.
bool measure_size(cublasHandle_t handle, const Variant& anchor, const Variant& mech3, const Variant& mech4, int m,
                  int n, int k, std::vector<Row>* rows) {
  Problem p(m, n, k);
  run_cublas(handle, p);
  CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<float> expected = download(p.c_cublas, p.c_elements());
  const bool fast_ok = fits_fast_path(anchor, p) && fits_fast_path(mech3, p);
  bool all = true;
  std::vector<Timed> kernels;
  kernels.push_back({"cublas", "", [&] { run_cublas(handle, p); }, {}});
  for (int edge = fast_ok ? 0 : 1; edge < 2; ++edge)
    for (const Variant* v : {&anchor, &mech3, &mech4}) {
      const Launch launch = edge ? v->edge : v->fast;
      p.poison_c();
      launch(p.a, p.b, p.c, m, n, k);
      CHECK_CUDA(cudaGetLastError());
      const Error e = compare(download(p.c, p.c_elements()), expected);
      all = all && e.pass();
      std::printf("  check %dx%dx%d  %-22s %-4s  vs cuBLAS: rel L2 %.2e  max %.2e  %s\n", m, n, k, v->name,
                  edge ? "edge" : "fast", e.l2, e.max, e.pass() ? "PASS" : "FAIL");
      kernels.push_back({v->name, edge ? "edge" : "fast", [&p, launch, m, n, k] { launch(p.a, p.b, p.c, m, n, k); }, {}});
    }
  time_interleaved(kernels, 5, 30);
  const double cublas_ms = kernels[0].median();
  for (const Timed& t : kernels)
    std::printf("  %5dx%5dx%5d  %-22s %-4s  median %8.3f ms  %6.1f TFLOP/s  %.3f of cuBLAS  (min %.3f, max %.3f ms)\n", m,
                n, k, t.name, t.path, t.median(), p.flops() / t.median() / 1e9, cublas_ms / t.median(),
                *std::min_element(t.ms.begin(), t.ms.end()), *std::max_element(t.ms.begin(), t.ms.end()));
  char size[64];
  std::snprintf(size, sizeof size, "%dx%dx%d", m, n, k);
  for (size_t i = 1; i + 2 < kernels.size(); i += 3)
    rows->push_back({size, kernels[i].path, p.flops() / cublas_ms / 1e9, p.flops() / kernels[i].median() / 1e9,
                     p.flops() / kernels[i + 1].median() / 1e9, p.flops() / kernels[i + 2].median() / 1e9, all});
  return all;
}

}  // namespace

int main() {
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return std::fprintf(stderr, "cublasCreate failed\n"), 1;
  int cublas_version = 0;
  cublasGetVersion(handle, &cublas_version);
  std::printf("%s, %d SMs, cuBLAS %d\n", prop.name, prop.multiProcessorCount, cublas_version);

  const Variant anchor = make_variant<Tile128x256x64>("anchor 128x256x64s3");
  const Variant mech3 = mech::make_variant<mech::Plan128x256x64s3>("mechanisms 128x256x64s3");
  const Variant mech4 = mech::make_variant<mech::Plan128x256x64s4>("mechanisms 128x256x64s4");
  for (const Variant* v : {&anchor, &mech3, &mech4})
    std::printf("variant %-24s %d threads  %6d B shared  blocks/SM fast %d edge %d\n", v->name, v->threads,
                v->smem_bytes, v->fast_blocks, v->edge_blocks);

  bool all = true;
  // Odd sizes: partial M, N and K tiles, K shorter than the pipeline, a single k tile.
  const int small_sizes[][3] = {{256, 512, 512}, {200, 136, 72}, {77, 264, 40}, {129, 8, 8}};
  for (const auto& s : small_sizes) all = check_against_cpu(handle, {anchor, mech3, mech4}, s[0], s[1], s[2]) && all;

  std::vector<Row> rows;
  const int sizes[][3] = {{4096, 4096, 4096}, {8192, 8192, 8192}, {4000, 4000, 4000}, {8191, 8184, 8184}};
  for (const auto& s : sizes) all = measure_size(handle, anchor, mech3, mech4, s[0], s[1], s[2], &rows) && all;

  std::printf("\n| size | path | cuBLAS TFLOP/s | anchor TFLOP/s | mechanisms s3 TFLOP/s | s3 / anchor | s3 / cuBLAS "
              "| mechanisms s4 TFLOP/s | s4 / anchor |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (const Row& r : rows)
    std::printf("| %s | %s | %.1f | %.1f | %.1f | %.3f | %.3f | %.1f | %.3f |\n", r.size.c_str(), r.path.c_str(),
                r.cublas, r.anchor, r.mech, r.mech / r.anchor, r.mech / r.cublas, r.mech_s4, r.mech_s4 / r.anchor);
  std::printf("%s\n", all ? "ALL PASS" : "SOME FAILED");
  cublasDestroy(handle);
  return all ? 0 : 1;
}
