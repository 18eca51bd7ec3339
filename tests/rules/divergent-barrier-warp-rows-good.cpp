// A warp that owns a row leaves at `if (row >= rows) return;` before its warp collective: with
// block.x a multiple of 32 each warp lies in one row, so the row (thread_idx().y and uniform
// values) is the same for all its lanes, and every lane of a warp that stays reaches the shuffle.
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 4, 1))
void row_sums(carbide::span<const float> in, carbide::disjoint_span2d<float> out, unsigned rows, unsigned cols) {
  auto idx = carbide::thread::index_2d();
  const unsigned row = carbide::thread::block_idx().y * 4 + carbide::thread::thread_idx().y;
  if (row >= rows) return;
  const unsigned lane = carbide::thread::thread_idx().x;
  float sum = 0.f;
  for (unsigned c = lane; c < cols; c += 32) sum += in[row * cols + c];
  sum = carbide::warp::reduce_add(sum);
  if (float* o = out.get_mut(idx)) *o = sum;
}

// Warps numbered across a row of 64: thread_idx().x / 32 is the warp's own.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (64, 2, 1))
void half_rows(carbide::disjoint_span2d<float> out, unsigned live) {
  auto idx = carbide::thread::index_2d();
  const unsigned warp = carbide::thread::thread_idx().x / 32 + 2 * carbide::thread::thread_idx().y;
  if (warp >= live) return;
  const float top = carbide::warp::broadcast<0>(float(carbide::thread::thread_idx().x));
  if (float* o = out.get_mut(idx)) *o = top;
}

}  // namespace kernels
