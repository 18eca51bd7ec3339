// reduce6.cpp — port of cuda-samples 2_Concepts_and_Techniques/reduction, kernel `reduce6`
// (the "multiple elements per thread, completely unrolled" reduction, in its current
// cooperative-groups form): each thread sums a grid-stride share of the input (two elements per
// step when n is a power of two), the block tree-reduces in shared memory down to 64 partials,
// and the first warp finishes with `shfl_down` under `if (tid < 32)`; thread 0 writes the
// block's sum to g_odata[blockIdx.x].
//
// Changed from the textbook, vocabulary only:
// - `template <class T, unsigned blockSize, bool nIsPow2>` → float, constexpr blockSize = 256,
//   nIsPow2 a kernel scalar (the branch is block-uniform either way);
// - `extern __shared__ T sdata[]` (SharedMemory<T>) → `block::shared<float, blockSize>()`;
// - `cg::sync(cta)` → `block::sync()`, `tile32.shfl_down` → `warp::shfl_down`;
// - `threadIdx.x`, `blockIdx.x`, `gridDim.x` → `thread::thread_idx().x`, `block_idx().x`,
//   `grid_dim().x`;
// - `g_odata[blockIdx.x] = mySum` (one element per *block*, written by thread 0) has no exclusive
//   form: no witness names "this block's element". It is `g_odata.exchange(blockIdx.x, mySum)`
//   on an atomic_span (a plain store as an atomic exchange), as samples/scan does.
//
// Accepted by `carbide check` with no finding:
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

constexpr unsigned blockSize = 256;

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(blockSize)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (blockSize, 1, 1))
void reduce6(carbide::span<const float> g_idata, carbide::atomic_span<float> g_odata, unsigned n,
             bool nIsPow2) {
  auto sdata = carbide::block::shared<float, blockSize>();

  // perform first level of reduction,
  // reading from global memory, writing to shared memory
  unsigned int tid = carbide::thread::thread_idx().x;
  unsigned int gridSize = blockSize * carbide::thread::grid_dim().x;

  float mySum = 0;

  // we reduce multiple elements per thread.  The number is determined by the
  // number of active thread blocks (via gridDim).  More blocks will result
  // in a larger gridSize and therefore fewer elements per thread
  if (nIsPow2) {
    unsigned int i = carbide::thread::block_idx().x * blockSize * 2 + carbide::thread::thread_idx().x;
    gridSize = gridSize << 1;

    while (i < n) {
      mySum += g_idata[i];
      // ensure we don't read out of bounds -- this is optimized away for powerOf2
      // sized arrays
      if ((i + blockSize) < n) {
        mySum += g_idata[i + blockSize];
      }
      i += gridSize;
    }
  } else {
    unsigned int i = carbide::thread::block_idx().x * blockSize + carbide::thread::thread_idx().x;
    while (i < n) {
      mySum += g_idata[i];
      i += gridSize;
    }
  }

  // each thread puts its local sum into shared memory
  sdata[tid] = mySum;
  carbide::block::sync();

  // do reduction in shared mem
  if ((blockSize >= 512) && (tid < 256)) {
    sdata[tid] = mySum = mySum + sdata[tid + 256];
  }

  carbide::block::sync();

  if ((blockSize >= 256) && (tid < 128)) {
    sdata[tid] = mySum = mySum + sdata[tid + 128];
  }

  carbide::block::sync();

  if ((blockSize >= 128) && (tid < 64)) {
    sdata[tid] = mySum = mySum + sdata[tid + 64];
  }

  carbide::block::sync();

  if (tid < 32) {
    // Fetch final intermediate sum from 2nd warp
    if (blockSize >= 64) mySum += sdata[tid + 32];
    // Reduce final warp using shuffle
    for (int offset = 32 / 2; offset > 0; offset /= 2) {
      mySum += carbide::warp::shfl_down(mySum, offset);
    }
  }

  // write result for this block to global mem
  if (tid == 0) g_odata.exchange(carbide::thread::block_idx().x, mySum);
}

}  // namespace kernels
