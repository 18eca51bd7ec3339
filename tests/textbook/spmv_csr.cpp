// spmv_csr.cpp — port of "Programming Massively Parallel Processors" (4th ed.), chapter 14,
// `spmv_csr_kernel`: one thread a row, its nonzeros from rowPtrs[row] to rowPtrs[row + 1], the
// vector read through the column indexes (data-dependent reads of a read-only view).
//
// Changed from the textbook: the CSRMatrix struct's pointers → three `span<const …>` parameters;
// `if (row < csrMatrix.numRows) { … y[row] += sum; }` → `y.get_mut(idx)` (a plain store: the
// book's `+=` adds to a y the host zeroed).
//
// Accepted by `carbide check` with no finding (session 14, as first ported):
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(256)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void spmv_csr_kernel(carbide::span<const unsigned> rowPtrs, carbide::span<const unsigned> colIdx, carbide::span<const float> value,
                     carbide::span<const float> x, carbide::disjoint_span<float> y) {
  auto idx = carbide::thread::index_1d();
  if (float* out = y.get_mut(idx)) {
    unsigned row = idx.get();
    float sum = 0.0f;
    for (unsigned i = rowPtrs[row]; i < rowPtrs[row + 1]; ++i) sum += x[colIdx[i]] * value[i];
    *out = sum;
  }
}

}  // namespace kernels
