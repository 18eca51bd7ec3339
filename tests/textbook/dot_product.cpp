// dot_product.cpp — port of "CUDA by Example" (Sanders, Kandrot), chapter 5, `dot`: a
// grid-stride `while` loop into a register, the block's partial sums reduced in shared memory by
// a `while (i != 0)` loop halving `i`, and thread 0 writing the block's sum to c[blockIdx.x].
//
// Changed from the textbook, vocabulary only:
// - `__shared__ float cache[threadsPerBlock]` → `block::shared<float, threadsPerBlock>()`;
// - `if (cacheIndex == 0) c[blockIdx.x] = cache[0]` → `c.get_mut_block(lid)`, the block's
//   element for its thread 0;
// - `threadIdx.x` etc. → `thread::thread_idx().x` etc.
//
// Accepted by `carbide check` with no finding (session 14, as first ported):
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

constexpr unsigned threadsPerBlock = 256;
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(threadsPerBlock)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (threadsPerBlock, 1, 1))
void dot(carbide::span<const float> a, carbide::span<const float> b, carbide::disjoint_span<float> c, unsigned N) {
  auto lid = carbide::thread::local_index();
  auto cache = carbide::block::shared<float, threadsPerBlock>();
  unsigned tid = carbide::thread::thread_idx().x + carbide::thread::block_idx().x * carbide::thread::block_dim().x;
  unsigned cacheIndex = carbide::thread::thread_idx().x;
  float temp = 0;
  while (tid < N) {
    temp += a[tid] * b[tid];
    tid += carbide::thread::block_dim().x * carbide::thread::grid_dim().x;
  }
  cache[cacheIndex] = temp;
  carbide::block::sync();
  unsigned i = carbide::thread::block_dim().x / 2;
  while (i != 0) {
    if (cacheIndex < i) cache[cacheIndex] += cache[cacheIndex + i];
    carbide::block::sync();
    i /= 2;
  }
  if (float* total = c.get_mut_block(lid)) *total = cache[0];
}

}  // namespace kernels
