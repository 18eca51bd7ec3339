// The same bitonic sort as a CUDA programmer writes it by hand (sortingNetworks'
// bitonicMergeGlobal, keys only, in place): one launch per merge step, 256 threads, each
// comparing the pair 2i − (i & (stride − 1)) and + stride. The benchmark's twin.
#include <cuda_runtime.h>

#include <cstddef>

namespace reference {
namespace {

__global__ void __launch_bounds__(256) merge_step(float* __restrict__ keys, unsigned size,
                                                  unsigned stride) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned pos = 2 * i - (i & (stride - 1));
  const bool ascending = (i & (size / 2)) == 0;
  const float a = keys[pos], b = keys[pos + stride];
  const bool swap = (a > b) == ascending;
  keys[pos] = swap ? b : a;
  keys[pos + stride] = swap ? a : b;
}

}  // namespace

// n a power of two, at least 512.
void launch_bitonic_sort(float* keys, std::size_t n) {
  const unsigned blocks = unsigned(n / 2 / 256);
  for (std::size_t size = 2; size <= n; size *= 2)
    for (std::size_t stride = size / 2; stride > 0; stride /= 2)
      merge_step<<<blocks, 256>>>(keys, unsigned(size), unsigned(stride));
}

}  // namespace reference
