// histogram256.cpp — port of cuda-samples 3_CUDA_Features/histogram (histogram256.cu):
// `histogram256Kernel` (per-warp sub-histograms in shared memory, 6 warps = 192 threads, bytes
// counted with shared-memory atomicAdd, the sub-histograms merged per block into a partial
// histogram) and `mergeHistogram256Kernel` (one block of 256 threads per bin sums the partial
// histograms with a shared-memory tree). A third kernel is the per-block form of the same
// counting (CUDA by Example §9.4 `histo_kernel`, with a 192-thread block: the
// `for (i = tid; i < 256; i += blockDim.x)` clear and publish loops).
//
// Changed from the textbook:
// - `uint *s_WarpHist = s_Hist + (threadIdx.x >> LOG2_WARP_SIZE) * 256` (a pointer into shared
//   memory) → an offset `warp_base` added to the index; `atomicAdd(s_WarpHist + data, 1)` →
//   `s_Hist.fetch_add(warp_base + data, 1u)`; the unused thread tag is dropped (the atomic
//   version of the sample ignores it; TAG_MASK is all ones);
// - `d_PartialHistograms[blockIdx.x * 256 + bin] = sum` in a `bin += 192` loop: each thread
//   writes bins tid and tid + 192 (when < 256) of its block's 256: no exclusive view deals out a
//   block-owned slice of 256 to a block of 192 (get_mut_strided_chunks<1, 2> would give the block
//   384 elements), so the partial histograms are an atomic_span written with exchange();
// - `d_Histogram[blockIdx.x] = data[0]` by thread 0 (one element per block): atomic_span exchange;
// - `atomicAdd(&histo[threadIdx.x], temp[threadIdx.x])` → `histo.fetch_add(i, temp[i])`;
// - `cg::sync(cta)` → `block::sync()`; threadIdx/blockIdx/blockDim/gridDim → thread::…;
//   UMAD/UMUL → plain * and +.
//
// Accepted by `carbide check` with no finding:
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

#include <cstdint>

namespace kernels {

constexpr unsigned HISTOGRAM256_BIN_COUNT = 256;
constexpr unsigned LOG2_WARP_SIZE = 5U;
constexpr unsigned WARP_SIZE = 1U << LOG2_WARP_SIZE;
constexpr unsigned WARP_COUNT = 6;
constexpr unsigned HISTOGRAM256_THREADBLOCK_SIZE = WARP_COUNT * WARP_SIZE;  // 192
constexpr unsigned HISTOGRAM256_THREADBLOCK_MEMORY = WARP_COUNT * HISTOGRAM256_BIN_COUNT;
constexpr unsigned TAG_MASK = 0xFFFFFFFFU;
constexpr unsigned MERGE_THREADBLOCK_SIZE = 256;

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(HISTOGRAM256_THREADBLOCK_SIZE)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (HISTOGRAM256_THREADBLOCK_SIZE, 1, 1))
void histogram256Kernel(carbide::atomic_span<unsigned> d_PartialHistograms,
                        carbide::span<const unsigned> d_Data, unsigned dataCount) {
  // Per-warp subhistogram storage
  auto s_Hist = carbide::block::shared<unsigned, HISTOGRAM256_THREADBLOCK_MEMORY>();
  const unsigned warp_base = (carbide::thread::thread_idx().x >> LOG2_WARP_SIZE) * HISTOGRAM256_BIN_COUNT;

  // Clear shared memory storage for current threadblock before processing
  for (unsigned i = 0; i < (HISTOGRAM256_THREADBLOCK_MEMORY / HISTOGRAM256_THREADBLOCK_SIZE); i++) {
    s_Hist[carbide::thread::thread_idx().x + i * HISTOGRAM256_THREADBLOCK_SIZE] = 0;
  }

  carbide::block::sync();

  // Cycle through the entire data set, update subhistograms for each warp
  for (unsigned pos = carbide::thread::block_idx().x * carbide::thread::block_dim().x +
                      carbide::thread::thread_idx().x;
       pos < dataCount; pos += carbide::thread::block_dim().x * carbide::thread::grid_dim().x) {
    unsigned data = d_Data[pos];
    // addWord: four addByte
    s_Hist.fetch_add(warp_base + ((data >> 0) & 0xFFU), 1u);
    s_Hist.fetch_add(warp_base + ((data >> 8) & 0xFFU), 1u);
    s_Hist.fetch_add(warp_base + ((data >> 16) & 0xFFU), 1u);
    s_Hist.fetch_add(warp_base + ((data >> 24) & 0xFFU), 1u);
  }

  // Merge per-warp histograms into per-block and write to global memory
  carbide::block::sync();

  for (unsigned bin = carbide::thread::thread_idx().x; bin < HISTOGRAM256_BIN_COUNT;
       bin += HISTOGRAM256_THREADBLOCK_SIZE) {
    unsigned sum = 0;

    for (unsigned i = 0; i < WARP_COUNT; i++) {
      sum += s_Hist[bin + i * HISTOGRAM256_BIN_COUNT] & TAG_MASK;
    }

    d_PartialHistograms.exchange(carbide::thread::block_idx().x * HISTOGRAM256_BIN_COUNT + bin, sum);
  }
}

// Merge histogram256() output: one thread block per bin, summing histogramCount partials.
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(MERGE_THREADBLOCK_SIZE)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (MERGE_THREADBLOCK_SIZE, 1, 1))
void mergeHistogram256Kernel(carbide::atomic_span<unsigned> d_Histogram,
                             carbide::span<const unsigned> d_PartialHistograms, unsigned histogramCount) {
  unsigned sum = 0;

  for (unsigned i = carbide::thread::thread_idx().x; i < histogramCount; i += MERGE_THREADBLOCK_SIZE) {
    sum += d_PartialHistograms[carbide::thread::block_idx().x + i * HISTOGRAM256_BIN_COUNT];
  }

  auto data = carbide::block::shared<unsigned, MERGE_THREADBLOCK_SIZE>();
  data[carbide::thread::thread_idx().x] = sum;

  for (unsigned stride = MERGE_THREADBLOCK_SIZE / 2; stride > 0; stride >>= 1) {
    carbide::block::sync();

    if (carbide::thread::thread_idx().x < stride) {
      data[carbide::thread::thread_idx().x] += data[carbide::thread::thread_idx().x + stride];
    }
  }

  if (carbide::thread::thread_idx().x == 0) {
    d_Histogram.exchange(carbide::thread::block_idx().x, data[0]);
  }
}

// Per-block form (CUDA by Example histo_kernel) with a 192-thread block: 256 bins cleared and
// published by `for (i = tid; i < 256; i += blockDim.x)`.
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(HISTOGRAM256_THREADBLOCK_SIZE)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (HISTOGRAM256_THREADBLOCK_SIZE, 1, 1))
void histo_kernel(carbide::span<const unsigned char> buffer, long size, carbide::atomic_span<unsigned> histo) {
  auto temp = carbide::block::shared<unsigned, 256>();
  for (unsigned i = carbide::thread::thread_idx().x; i < 256; i += carbide::thread::block_dim().x) temp[i] = 0;
  carbide::block::sync();

  int i = carbide::thread::thread_idx().x + carbide::thread::block_idx().x * carbide::thread::block_dim().x;
  int offset = carbide::thread::block_dim().x * carbide::thread::grid_dim().x;
  while (i < size) {
    temp.fetch_add(buffer[i], 1u);
    i += offset;
  }

  carbide::block::sync();
  for (unsigned i = carbide::thread::thread_idx().x; i < 256; i += carbide::thread::block_dim().x)
    histo.fetch_add(i, temp[i]);
}

}  // namespace kernels
