// bitonic_sort.cpp — two textbook bitonic sorts in shared memory.
//
// 1. `bitonicSortShared` from cuda-samples 2_Concepts_and_Techniques/sortingNetworks
//    (bitonicSort.cu): key/value pairs, SHARED_SIZE_LIMIT = 1024 elements per block of 512
//    threads, each thread loading elements tid and tid + 512, then butterflies at
//    `pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1))` comparing pos and pos + stride
//    through `Comparator(uint &keyA, uint &valA, uint &keyB, uint &valB, uint dir)`.
//    arrayLength is a power of two ≤ 1024 (the host asserts it).
// 2. The `ixj = tid ^ j` form (the classic one-element-per-thread bitonic network, as in
//    NVIDIA's and most course notes' `bitonic_sort_step`, here over one block's 512 elements in
//    shared memory): the thread whose partner ixj is above it compares and swaps s[tid], s[ixj].
//
// Changed from the textbook:
// - `__shared__ uint s_key[1024]` → `block::shared<unsigned, SHARED_SIZE_LIMIT>()`;
// - `d_SrcKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x; … d_SrcKey[0], d_SrcKey[512]`
//   (pointer offsets) → `d_SrcKey[base + 0]`, `d_SrcKey[base + 512]`;
// - the outputs `d_DstKey[0]`, `d_DstKey[512]` (after the same offset): elements
//   1024·bx + tid and 1024·bx + tid + 512, exactly `get_mut_strided_chunks<1, 2>(index_1d())`;
//   stored with `mine.store(0, …)`, `mine.store(1, …)`;
// - `Comparator` keeps its reference parameters, bound to shared slots as in the sample;
// - `cg::sync(cta)` → `block::sync()`; threadIdx/blockIdx → thread_idx()/block_idx().
//
// - the host's `assert` that arrayLength is a power of two (at most SHARED_SIZE_LIMIT) is stated
//   in the kernel too, as `CARBIDE_REQUIRE(...)`: the last merge's `stride = arrayLength / 2`
//   makes disjoint pairs only for such lengths (for others, two threads would compare-and-swap
//   the same slot), and the requirement is what lets the checker prove the pairs disjoint. It is
//   checked on the device, one uniform test per thread, with NDEBUG too.
//
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

constexpr unsigned SHARED_SIZE_LIMIT = 1024U;
constexpr unsigned SORT_THREADS = SHARED_SIZE_LIMIT / 2;  // the sample launches SHARED_SIZE_LIMIT / 2 threads

inline void Comparator(unsigned& keyA, unsigned& valA, unsigned& keyB, unsigned& valB, unsigned dir) {
  unsigned t;

  if ((keyA > keyB) == dir) {
    t = keyA;
    keyA = keyB;
    keyB = t;
    t = valA;
    valA = valB;
    valB = t;
  }
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(SORT_THREADS)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (SORT_THREADS, 1, 1))
void bitonicSortShared(carbide::disjoint_span<unsigned> d_DstKey, carbide::disjoint_span<unsigned> d_DstVal,
                       carbide::span<const unsigned> d_SrcKey, carbide::span<const unsigned> d_SrcVal,
                       unsigned arrayLength, unsigned dir) {
  auto idx = carbide::thread::index_1d();
  // Shared memory storage for one or more short vectors
  auto s_key = carbide::block::shared<unsigned, SHARED_SIZE_LIMIT>();
  auto s_val = carbide::block::shared<unsigned, SHARED_SIZE_LIMIT>();

  // Offset to the beginning of subbatch and load data
  const unsigned base = carbide::thread::block_idx().x * SHARED_SIZE_LIMIT + carbide::thread::thread_idx().x;
  s_key[carbide::thread::thread_idx().x + 0] = d_SrcKey[base + 0];
  s_val[carbide::thread::thread_idx().x + 0] = d_SrcVal[base + 0];
  s_key[carbide::thread::thread_idx().x + (SHARED_SIZE_LIMIT / 2)] = d_SrcKey[base + (SHARED_SIZE_LIMIT / 2)];
  s_val[carbide::thread::thread_idx().x + (SHARED_SIZE_LIMIT / 2)] = d_SrcVal[base + (SHARED_SIZE_LIMIT / 2)];

  CARBIDE_REQUIRE(arrayLength >= 2 && arrayLength <= SHARED_SIZE_LIMIT && (arrayLength & (arrayLength - 1)) == 0);

  for (unsigned size = 2; size < arrayLength; size <<= 1) {
    // Bitonic merge
    unsigned ddd = dir ^ ((carbide::thread::thread_idx().x & (size / 2)) != 0);

    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      carbide::block::sync();
      unsigned pos = 2 * carbide::thread::thread_idx().x - (carbide::thread::thread_idx().x & (stride - 1));
      Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], ddd);
    }
  }

  // ddd == dir for the last bitonic merge step
  {
    for (unsigned stride = arrayLength / 2; stride > 0; stride >>= 1) {
      carbide::block::sync();
      unsigned pos = 2 * carbide::thread::thread_idx().x - (carbide::thread::thread_idx().x & (stride - 1));
      Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], dir);
    }
  }

  carbide::block::sync();
  if (auto keys = d_DstKey.get_mut_strided_chunks<1, 2>(idx)) {
    keys.store(0, carbide::vec<unsigned, 1>{{s_key[carbide::thread::thread_idx().x + 0]}});
    keys.store(1, carbide::vec<unsigned, 1>{{s_key[carbide::thread::thread_idx().x + (SHARED_SIZE_LIMIT / 2)]}});
  }
  if (auto vals = d_DstVal.get_mut_strided_chunks<1, 2>(idx)) {
    vals.store(0, carbide::vec<unsigned, 1>{{s_val[carbide::thread::thread_idx().x + 0]}});
    vals.store(1, carbide::vec<unsigned, 1>{{s_val[carbide::thread::thread_idx().x + (SHARED_SIZE_LIMIT / 2)]}});
  }
}

// The XOR-partner network over one block's NUM elements, ascending.
constexpr unsigned NUM = 512;

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(NUM)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (NUM, 1, 1))
void bitonicSortXor(carbide::disjoint_span<float> values_out, carbide::span<const float> values) {
  auto idx = carbide::thread::index_1d();
  auto shared = carbide::block::shared<float, NUM>();
  const unsigned tid = carbide::thread::thread_idx().x;

  shared[tid] = values[idx.get()];
  carbide::block::sync();

  for (unsigned k = 2; k <= NUM; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned ixj = tid ^ j;
      if (ixj > tid) {
        if ((tid & k) == 0) {
          if (shared[tid] > shared[ixj]) {
            float temp = shared[tid];
            shared[tid] = shared[ixj];
            shared[ixj] = temp;
          }
        } else {
          if (shared[tid] < shared[ixj]) {
            float temp = shared[tid];
            shared[tid] = shared[ixj];
            shared[ixj] = temp;
          }
        }
      }
      carbide::block::sync();
    }
  }

  if (float* out = values_out.get_mut(idx)) *out = shared[tid];
}

}  // namespace kernels
