// softmax_warp_per_row.cpp — port of llm.c's dev/cuda/softmax_forward.cu, `softmax_forward_kernel3`
// (a warp per row, launched with blocks of 32: row idx = blockIdx.x): the row's maximum and sum
// reduced with shuffles, broadcast from lane 0 with `__shfl_sync(mask, v, 0)`, the exponentials
// written to the output row and read back for the sum and the division. Then the same kernel with
// four warps a block, as a warp-per-row kernel is usually launched.
//
// Changed from the original, vocabulary only:
// - `int idx = blockIdx.x` (a warp a block) → `thread::warp_index_1d()`, the warp's row;
// - `warpReduceMax` / `warpReduceSum` (`__shfl_down_sync` trees, kept as helpers) →
//   `warp::shfl_down`; `__shfl_sync(0xFFFFFFFF, v, 0)` → `warp::broadcast<0>(v)`;
// - `out[idx * C + i]` for i = tid, tid + 32, … → the row's elements `o[k]` of
//   `out.get_mut_warp_row(warp, C)` (column `o.index(k)`), read back as the original reads them;
// - `float* x = inp + idx * C` → `inp.subspan(idx * C, C)`.
//
// Accepted by `carbide check` with no finding:
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

// warp-level reduction for finding the maximum value
float warpReduceMax(float val) {
  for (int offset = 16; offset > 0; offset /= 2) val = fmaxf(val, carbide::warp::shfl_down(val, offset));
  return val;
}

// warp-level reduction for summing values
float warpReduceSum(float val) {
  for (int offset = 16; offset > 0; offset /= 2) val += carbide::warp::shfl_down(val, offset);
  return val;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (32, 1, 1))
void softmax_forward_kernel3(carbide::disjoint_span<float> out, carbide::span<const float> inp, int N, int C) {
  auto warp = carbide::thread::warp_index_1d();
  if (warp.get() >= unsigned(N)) return;
  const unsigned tid = carbide::thread::lane().get();
  const carbide::span<const float> x = inp.subspan(warp.get() * C, C);

  // Thread coarsening and within-warp reduction for maxval
  float maxval = -INFINITY;
  for (unsigned i = tid; i < x.size(); i += 32) maxval = fmaxf(maxval, x[i]);
  maxval = warpReduceMax(maxval);

  // Broadcast maxval within the warp
  const float offset = carbide::warp::broadcast<0>(maxval);

  // Compute expf and write the result to global memory
  auto o = out.get_mut_warp_row(warp, C);
  for (unsigned k = 0; k < o.count(); ++k) o[k] = expf(x[o.index(k)] - offset);

  // Thread coarsening and within-warp reduction for sumval
  float sumval = 0.0f;
  for (unsigned k = 0; k < o.count(); ++k) sumval += o[k];
  sumval = warpReduceSum(sumval);

  // Broadcast sumval within the warp
  const float sum = carbide::warp::broadcast<0>(sumval);

  // Divide the input values by the sum
  for (unsigned k = 0; k < o.count(); ++k) o[k] = o[k] / sum;
}

// Four warps a block, four rows: the same body, and a warp past the last row leaves before its
// shuffles.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void softmax_four_rows_a_block(carbide::disjoint_span<float> out, carbide::span<const float> inp, int N, int C) {
  auto warp = carbide::thread::warp_index_1d();
  if (warp.get() >= unsigned(N)) return;
  const unsigned tid = carbide::thread::lane().get();
  const carbide::span<const float> x = inp.subspan(warp.get() * C, C);
  float maxval = -INFINITY;
  for (unsigned i = tid; i < x.size(); i += 32) maxval = fmaxf(maxval, x[i]);
  const float offset = carbide::warp::reduce(maxval, [](float a, float b) { return fmaxf(a, b); });
  auto o = out.get_mut_warp_row(warp, C);
  for (unsigned k = 0; k < o.count(); ++k) o[k] = expf(x[o.index(k)] - offset);
  float sumval = 0.0f;
  for (unsigned k = 0; k < o.count(); ++k) sumval += o[k];
  const float sum = carbide::warp::reduce_add(sumval);
  for (unsigned k = 0; k < o.count(); ++k) o[k] = o[k] / sum;
}

}  // namespace kernels
