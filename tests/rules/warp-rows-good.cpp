// The warp-owned forms as warp-per-row kernels use them: warp w of the grid owns row w, its lanes
// stride the row by 32 (get_mut_warp_row), lane 0 writes the row's scalars
// (get_mut_warp_leader), a warp past the last row leaves before its shuffles, and the row's
// maximum comes from warp::reduce with a lambda of its two values. Also in a helper that takes
// the witness, and in a block of 48 threads, whose second warp is half a warp (and which
// therefore has no warp collective).
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void row_scale(carbide::disjoint_span<float> out, carbide::disjoint_span<float> largest,
               carbide::span<const float> in, unsigned rows, unsigned cols) {
  auto warp = carbide::thread::warp_index_1d();
  if (warp.get() >= rows) return;
  const carbide::span<const float> x = in.subspan(warp.get() * cols, cols);
  float m = -INFINITY;
  for (unsigned c = carbide::thread::lane().get(); c < cols; c += 32) m = fmaxf(m, x[c]);
  m = carbide::warp::reduce(m, [](float a, float b) { return fmaxf(a, b); });
  if (float* l = largest.get_mut_warp_leader(warp)) *l = m;
  auto row = out.get_mut_warp_row(warp, cols);
  for (unsigned k = 0; k < row.count(); ++k) row[k] = x[row.index(k)] / m;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void row_sums(carbide::disjoint_span<float> sums, carbide::span<const float> in, unsigned rows, unsigned cols) {
  auto warp = carbide::thread::warp_index_1d();
  if (warp.get() >= rows) return;
  float sum = 0.f;
  for (unsigned c = carbide::thread::lane().get(); c < cols; c += 32) sum += in[warp.get() * cols + c];
  sum = carbide::warp::reduce_add(sum);
  if (float* s = sums.get_mut_warp_leader(warp)) *s = sum;
}

// A helper given the witness claims the row for its caller; its row length is a parameter that
// every call passes a launch-invariant value.
void fill_row(const carbide::thread::warp_index_witness& warp, carbide::disjoint_span<int> out, unsigned cols) {
  auto row = out.get_mut_warp_row(warp, cols);
  for (unsigned k = 0; k < row.count(); ++k) row[k] = int(row.index(k));
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (48, 1, 1))
void partial_warps(carbide::disjoint_span<int> out, unsigned cols) {
  auto warp = carbide::thread::warp_index_1d();
  fill_row(warp, out, cols);
}

}  // namespace kernels
