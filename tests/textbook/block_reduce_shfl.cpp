// block_reduce_shfl.cpp — port of the NVIDIA developer blog's "Faster Parallel Reductions on
// Kepler": `warpReduceSum` (shuffle-down tree), `blockReduceSum` (each warp's sum to shared
// memory, a barrier, the first warp reduces them) and `deviceReduceKernel` (a grid-stride sum per
// thread, then the block's sum by thread 0).
//
// Changed from the textbook:
// - `__shfl_down_sync(0xffffffff, val, offset)` → `carbide::warp::shfl_down(val, offset)`;
//   `static __shared__ int shared[32]` in blockReduceSum → `block::shared<int, 32>()` there
//   (passing the array in from the kernel instead is reported: the checker cannot order a helper's
//   accesses to a parameter array against the caller's across the helper's barrier);
// - `if (threadIdx.x == 0) out[blockIdx.x] = sum` → `out.get_mut_block(lid)`.
// A shuffle under `threadIdx.x % 32 < 16`, or after a data-dependent `return`, is reported by
// carbide-divergent-barrier.
//
// Accepted by `carbide check` with no finding:
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

constexpr unsigned BLOCK = 256;

int warpReduceSum(int val) {
  for (int offset = 32 / 2; offset > 0; offset /= 2) val += carbide::warp::shfl_down(val, offset);
  return val;
}

int blockReduceSum(int val) {
  auto shared = carbide::block::shared<int, 32>();
  int lane = carbide::thread::thread_idx().x % 32;
  int wid = carbide::thread::thread_idx().x / 32;
  val = warpReduceSum(val);
  if (lane == 0) shared[wid] = val;
  carbide::block::sync();
  val = (carbide::thread::thread_idx().x < carbide::thread::block_dim().x / 32) ? shared[lane] : 0;
  if (wid == 0) val = warpReduceSum(val);
  return val;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(BLOCK)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (BLOCK, 1, 1))
void deviceReduceKernel(carbide::span<const int> in, carbide::disjoint_span<int> out, int N) {
  auto lid = carbide::thread::local_index();
  int sum = 0;
  for (int i = carbide::thread::block_idx().x * carbide::thread::block_dim().x + carbide::thread::thread_idx().x; i < N;
       i += carbide::thread::block_dim().x * carbide::thread::grid_dim().x)
    sum += in[i];
  sum = blockReduceSum(sum);
  if (int* o = out.get_mut_block(lid)) *o = sum;
}

}  // namespace kernels
