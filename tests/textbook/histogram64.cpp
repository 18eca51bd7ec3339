// histogram64.cpp — port of cuda-samples 2_Concepts_and_Techniques/histogram (histogram64.cu):
// `histogram64Kernel`. Each of the 64 threads counts bytes in its own column of a 64 × 64 array
// of 8-bit counters in shared memory; the column sits at `threadPos`, a permutation of the
// thread index chosen so that a warp's increments spread over the banks. The counter of bin d is
// `s_Hist[threadPos + d * 64]`, d being 6 bits of a loaded word: a thread's own whatever the data,
// which the checker proves because the data stands for any value of the thread's own and
// threadPos is a permutation (Z3, analysis/slot_solver.cpp). Then each block publishes 64 bins.
//
// Changed from the textbook:
// - `uchar *s_ThreadBase = s_Hist + threadPos` and `s_ThreadBase[data * 64]++` (a pointer into
//   shared memory) → `s_Hist[threadPos + data * 64]++`; the four `addByte` calls of `addWord`
//   written out, for one 32-bit word a thread instead of the sample's uint4 of four words;
// - the clear through `((uint *)s_Hist)[threadIdx.x + i * 64] = 0` (16 words a thread) → 64
//   byte stores a thread, `s_Hist[tid + i * 64] = 0`;
// - `if (threadIdx.x < 64) { ... d_PartialHistograms[blockIdx.x * 64 + value] = sum; }` → the
//   region form `get_mut_block_region(lid, 64)`, which deals the block's 64 bins to its 64
//   threads (bin = `mine.index(k) % 64` = the thread's index, as `value` in the sample); the
//   rotated start `accumPos` that spreads the merge's reads over the banks is kept.
//
// Accepted by `carbide check` with no finding:
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

constexpr unsigned SHARED_MEMORY_BANKS = 16;
constexpr unsigned HISTOGRAM64_BIN_COUNT = 64;
constexpr unsigned HISTOGRAM64_THREADBLOCK_SIZE = 4 * SHARED_MEMORY_BANKS;

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(HISTOGRAM64_THREADBLOCK_SIZE)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (HISTOGRAM64_THREADBLOCK_SIZE, 1, 1))
void histogram64Kernel(carbide::disjoint_span<unsigned> d_PartialHistograms, carbide::span<const unsigned> d_Data,
                       unsigned dataCount) {
  const unsigned tid = carbide::thread::thread_idx().x;
  const unsigned threadPos = ((tid & ~(SHARED_MEMORY_BANKS * 4 - 1)) << 0) | ((tid & (SHARED_MEMORY_BANKS - 1)) << 2) |
                             ((tid & (SHARED_MEMORY_BANKS * 3)) >> 4);
  auto s_Hist = carbide::block::shared<unsigned char, HISTOGRAM64_THREADBLOCK_SIZE * HISTOGRAM64_BIN_COUNT>();
  for (unsigned i = 0; i < HISTOGRAM64_BIN_COUNT; i++) s_Hist[tid + i * HISTOGRAM64_THREADBLOCK_SIZE] = 0;
  carbide::block::sync();
  for (unsigned pos = carbide::thread::block_idx().x * carbide::thread::block_dim().x + tid; pos < dataCount;
       pos += carbide::thread::block_dim().x * carbide::thread::grid_dim().x) {
    const unsigned data = d_Data[pos];
    s_Hist[threadPos + ((data >> 2) & 0x3FU) * HISTOGRAM64_THREADBLOCK_SIZE]++;
    s_Hist[threadPos + ((data >> 10) & 0x3FU) * HISTOGRAM64_THREADBLOCK_SIZE]++;
    s_Hist[threadPos + ((data >> 18) & 0x3FU) * HISTOGRAM64_THREADBLOCK_SIZE]++;
    s_Hist[threadPos + ((data >> 26) & 0x3FU) * HISTOGRAM64_THREADBLOCK_SIZE]++;
  }
  carbide::block::sync();
  auto lid = carbide::thread::local_index();
  if (auto mine = d_PartialHistograms.get_mut_block_region(lid, HISTOGRAM64_BIN_COUNT)) {
    for (unsigned k = 0; k < mine.count(); ++k) {
      const unsigned value = mine.index(k) % HISTOGRAM64_BIN_COUNT;
      const unsigned valueBase = value * HISTOGRAM64_THREADBLOCK_SIZE;
      const unsigned startPos = ((tid & 15) * 4) & 63;
      unsigned sum = 0;
      for (unsigned i = 0, accumPos = startPos; i < HISTOGRAM64_THREADBLOCK_SIZE; i++) {
        sum += s_Hist[valueBase + accumPos];
        if (++accumPos == HISTOGRAM64_THREADBLOCK_SIZE) accumPos = 0;
      }
      mine[k] = sum;
    }
  }
}

}  // namespace kernels
