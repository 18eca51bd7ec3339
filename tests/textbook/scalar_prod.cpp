// scalar_prod.cpp — port of cuda-samples 2_Concepts_and_Techniques/scalarProd, `scalarProdGPU`:
// the dot products of vectorN pairs of vectors, the vectors dealt out to the blocks in turn
// (`for (vec = blockIdx.x; vec < vectorN; vec += gridDim.x)`), each block accumulating ACCUM_N
// partial sums in shared memory with block-stride loops and tree-reducing them, with barriers
// inside the vector loop, and thread 0 writing d_C[vec].
//
// Changed from the textbook:
// - the vector loop is `for (auto&& vec : carbide::block::grid_stride(vectorN))`, whose index
//   is the witness `d_C.get_mut_block(lid, vec)` takes: thread 0's store of d_C[vec], which had no
//   exclusive form before session 14 (no witness named "this block's vectors");
// - `__shared__ float accumResult[ACCUM_N]` → `block::shared<float, ACCUM_N>()`,
//   `cg::sync(cta)` → `block::sync()`, `threadIdx.x` etc. → `thread::thread_idx().x` etc.
//
// Accepted by `carbide check` with no finding:
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

constexpr unsigned ACCUM_N = 1024;

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(256)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void scalarProdGPU(carbide::disjoint_span<float> d_C, carbide::span<const float> d_A, carbide::span<const float> d_B,
                   unsigned vectorN, unsigned elementN) {
  auto lid = carbide::thread::local_index();
  // Accumulators cache
  auto accumResult = carbide::block::shared<float, ACCUM_N>();

  ////////////////////////////////////////////////////////////////////////////
  // Cycle through every pair of vectors,
  // taking into account that vector counts can be different
  // from total number of thread blocks
  ////////////////////////////////////////////////////////////////////////////
  for (auto&& vec : carbide::block::grid_stride(vectorN)) {
    const unsigned vectorBase = elementN * vec.get();
    const unsigned vectorEnd = vectorBase + elementN;

    ////////////////////////////////////////////////////////////////////////
    // Each accumulator cycles through vectors with
    // stride equal to number of total number of accumulators ACCUM_N
    // At this stage ACCUM_N is only preferred be a multiple of warp size
    // to meet memory coalescing alignment constraints.
    ////////////////////////////////////////////////////////////////////////
    for (unsigned iAccum = carbide::thread::thread_idx().x; iAccum < ACCUM_N; iAccum += carbide::thread::block_dim().x) {
      float sum = 0;

      for (unsigned pos = vectorBase + iAccum; pos < vectorEnd; pos += ACCUM_N) sum += d_A[pos] * d_B[pos];

      accumResult[iAccum] = sum;
    }

    ////////////////////////////////////////////////////////////////////////
    // Perform tree-like reduction of accumulators' results.
    // ACCUM_N has to be power of two at this stage
    ////////////////////////////////////////////////////////////////////////
    for (unsigned stride = ACCUM_N / 2; stride > 0; stride >>= 1) {
      carbide::block::sync();

      for (unsigned iAccum = carbide::thread::thread_idx().x; iAccum < stride; iAccum += carbide::thread::block_dim().x)
        accumResult[iAccum] += accumResult[stride + iAccum];
    }

    carbide::block::sync();

    if (float* c = d_C.get_mut_block(lid, vec)) *c = accumResult[0];
  }
}

}  // namespace kernels
