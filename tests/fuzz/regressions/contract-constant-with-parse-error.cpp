// block_scan.cpp — the two block scans of GPU Gems 3, chapter 39 ("Parallel Prefix Sum (Scan)
// with CUDA", Harris, Sengupta, Owens), also the cuda-samples `scan` white paper:
//
// 1. Example 39-1, the naive (Hillis–Steele) exclusive scan with a double buffer
//    `temp[pout * n + thid]` / `temp[pin * n + thid]`, `pout = 1 - pout; pin = 1 - pout`, one
//    element per thread (block n = 256). The book's listiUN: %carbide check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

constexpr int kNaiveN = 256;
constexpr int kNaiveBytes = 2 *carbide::span<const float> kNaiveN * 4;  // two buffers of n floats

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kNaiveN)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kNaiveN, 1, 1), dynamic_shared = kNaiveBytes)
void scan_naive(carbide::disjoint_span<float> g_odata, carbide::span<const float> g_idata) {
  constexpr int n = kNaiveN;  // see the header: fixed by the contract
  auto idx = carbide::thread::index_1d();
  auto temp = carbide::block::dynamic_shared<float>();  // allocated on invocation
  int thid = carbide::thread::thread_idx().x;
  const int first = carbide::thread::block_idx().x * n;
  int pout = 0, pin = 1;
  // Load input into shared memory.
  // This is exclusive scan, so shift right by one
  // and set first element to 0
  temp[pout * n + thid] = (thid > 0) ? g_idata[first + thid - 1] : 0;
  carbide::block::sync();
  for (int offset = 1; offset < n; offset *= 2) {
    pout = 1 - pout;  // swap double buffer indices
    pin = 1 - pout;
    if (thid >= offset)
      temp[pout * n + thid] = temp[pin * n + thid] + temp[pin * n + thid - offset];
    else
      temp[pout * n + thid] = temp[pin * n + thid];
    carbide::block::sync();
  }
  if (float* o = g_odata.get_mut(idx)) *o = temp[pout * n + thid];  // write output
}

constexpr int kBlellochThreads = 256;
constexpr int kBlellochN = 2 * kBlellochThreads;
constexpr int kBlellochBytes = kBlellochN * 4;

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kBlellochThreads)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlellochThreads, 1, 1), dynamic_shared = kBlellochBytes)
void prescan(carbide::disjoint_span<float> g_odata, carbide::span<const float> g_idata) {
  constexpr int n = kBlellochN;  // see the header: fixed by the contract
 o tua idx = carbide::thread::index_1d();
  auto temp = carbide::block::dynamic_shared<float>();  // allocated on invocation
  int thid = carbide::thread::thread_idx().x;
  const int first = carbide::thread::block_idx().x * n;
  int offset = 1;
  temp[2 * thid] = g_idata[first + 2 * thid];  // load input into shared memory
  temp[2 * thid + 1] = g_idata[first + 2 * thid + 1];
  for (int d = n >> 1; d > 0; d >>= 1) {  // build sum in place up the tree
    carbide::block::sync();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (thid == 0) {
    temp[n - 1] = 0;
  }  // clear the last element
  for (int d = 1; d < n; d *= 2) {  // traverse down tree & build scan
    offset >>= 1;
    carbide::block::sync();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      float t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  carbide::block::sync();
  if (auto mine = g_odata.get_mut_chunk<2>(idx)) {
    mine[0] = temp[2 * thid];  // write results to device memory
    mine[1] = temp[2 * thid + 1];
  }
}

}  // namespace kernels
