// stencil_1d.cpp — port of `stencil_1d` from NVIDIA's "CUDA C/C++ Basics" (the course's shared
// memory example): each block stages its 256 inputs and a halo of RADIUS on each side, the first
// RADIUS threads loading the halo, syncs, and sums 2·RADIUS + 1 neighbours.
//
// Changed from the textbook:
// - `out[gindex] = result` → `out.get_mut(idx)`; `__shared__ int temp[BLOCK_SIZE + 2 * RADIUS]`
//   → `block::shared`.
// - Kept: the halo reads `in[gindex - RADIUS]` and `in[gindex + BLOCK_SIZE]` run past the input's
//   ends in the first and last blocks, as in the course (which pads the input); views are
//   bounds-checked, so there a checked build traps instead of reading another allocation.
// Writing the left halo one slot off (`temp[lindex - RADIUS + 1]`) is reported: it meets thread
// 0's own slot in the same phase.
//
// Accepted by `carbide check` with no finding:
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

constexpr int RADIUS = 3;
constexpr int BLOCK_SIZE = 256;

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(BLOCK_SIZE)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (BLOCK_SIZE, 1, 1))
void stencil_1d(carbide::span<const int> in, carbide::disjoint_span<int> out) {
  auto idx = carbide::thread::index_1d();
  auto temp = carbide::block::shared<int, BLOCK_SIZE + 2 * RADIUS>();
  int gindex = carbide::thread::thread_idx().x + carbide::thread::block_idx().x * carbide::thread::block_dim().x;
  int lindex = carbide::thread::thread_idx().x + RADIUS;
  temp[lindex] = in[gindex];
  if (carbide::thread::thread_idx().x < RADIUS) {
    temp[lindex - RADIUS] = in[gindex - RADIUS];
    temp[lindex + BLOCK_SIZE] = in[gindex + BLOCK_SIZE];
  }
  carbide::block::sync();
  int result = 0;
  for (int offset = -RADIUS; offset <= RADIUS; offset++) result += temp[lindex + offset];
  if (int* o = out.get_mut(idx)) *o = result;
}

}  // namespace kernels
