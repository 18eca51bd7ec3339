// reduce6_template.cpp — cuda-samples 2_Concepts_and_Techniques/reduction, kernel `reduce6`, in
// its own template form: `template <class T, unsigned int blockSize, bool nIsPow2>`, launched
// by the host for the block sizes its switch picks (here 512, 256 and 64, for float and double,
// both values of nIsPow2). Each instance the host launches is checked with its own arguments:
// `blockSize >= 512` is a constant in each, the shared array has blockSize elements, and the
// contract's block is blockSize.
//
// Changed from the textbook, vocabulary only:
// - `extern __shared__ T sdata[]` (SharedMemory<T>) → `block::shared<T, blockSize>()`;
// - `cg::sync(cta)` → `block::sync()`, `tile32.shfl_down` → `warp::shfl_down`;
// - `threadIdx.x`, `blockIdx.x`, `gridDim.x` → `thread::thread_idx().x`, `block_idx().x`,
//   `grid_dim().x`;
// - `if (cta.thread_rank() == 0) g_odata[blockIdx.x] = mySum;` → the leader form,
//   `if (T* out = g_odata.get_mut_block(lid)) *out = mySum;` (the block's own element, written
//   by its thread 0);
// - the host's `reduce<T>(size, threads, blocks, whichKernel, d_idata, d_odata)` switch → a
//   function template over the block size that launches `module.reduce6<T, blockSize, …>`.
//
// Accepted by `carbide check` with no finding:
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

template <class T, unsigned int blockSize, bool nIsPow2>
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(blockSize)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (blockSize, 1, 1))
void reduce6(carbide::span<const T> g_idata, carbide::disjoint_span<T> g_odata, unsigned int n) {
  auto lid = carbide::thread::local_index();
  auto sdata = carbide::block::shared<T, blockSize>();

  // perform first level of reduction,
  // reading from global memory, writing to shared memory
  unsigned int tid = carbide::thread::thread_idx().x;
  unsigned int gridSize = blockSize * carbide::thread::grid_dim().x;

  T mySum = 0;

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
  if (T* out = g_odata.get_mut_block(lid)) *out = mySum;
}

}  // namespace kernels

// The host side of the sample's dispatch: one launch per call, the instance picked by the block
// size and by whether n is a power of two.
template <class T, unsigned int blockSize>
void reduce(const kernels::Module& module, const carbide::Stream& stream, unsigned int blocks,
            const carbide::DeviceBuffer<T>& in, carbide::DeviceBuffer<T>& out, unsigned int n) {
  const carbide::LaunchConfig config = carbide::LaunchConfig1D(blocks, blockSize);
  if ((n & (n - 1)) == 0)
    module.reduce6(stream, module.prepare_reduce6<T, blockSize, true>(config), in, out, n);
  else
    module.reduce6(stream, module.prepare_reduce6<T, blockSize, false>(config), in, out, n);
}

template <class T>
void reduce(const kernels::Module& module, const carbide::Stream& stream, unsigned int threads,
            unsigned int blocks, const carbide::DeviceBuffer<T>& in, carbide::DeviceBuffer<T>& out,
            unsigned int n) {
  switch (threads) {
    case 512: reduce<T, 512>(module, stream, blocks, in, out, n); break;
    case 256: reduce<T, 256>(module, stream, blocks, in, out, n); break;
    case 64: reduce<T, 64>(module, stream, blocks, in, out, n); break;
  }
}

int main() {
  auto context = carbide::Context::create(0);
  auto stream = context.default_stream();
  auto module = kernels::load(context);
  const unsigned int n = 1 << 20, blocks = 64;
  auto in = carbide::DeviceBuffer<float>::zeroed(stream, n);
  auto partials = carbide::DeviceBuffer<float>::zeroed(stream, blocks);
  reduce<float>(module, stream, 256, blocks, in, partials, n);
  auto in_double = carbide::DeviceBuffer<double>::zeroed(stream, n);
  auto partials_double = carbide::DeviceBuffer<double>::zeroed(stream, blocks);
  for (unsigned int threads : {512u, 256u, 64u})
    reduce<double>(module, stream, threads, blocks, in_double, partials_double, n);
  return 0;
}
