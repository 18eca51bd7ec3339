// matrix_mul_tiled.cpp — port of cuda-samples 0_Introduction/matrixMul, `MatrixMulCUDA<16>`
// (also the CUDA C++ Programming Guide's shared-memory matrix multiplication): a 16 × 16 block
// computes a 16 × 16 tile of C, stepping through A's row of tiles and B's column of tiles; each
// step loads one element of `As[BLOCK_SIZE][BLOCK_SIZE]` and `Bs[…][…]` per thread, syncs,
// accumulates `As[ty][k] * Bs[k][tx]`, syncs. Matrices are multiples of 16 (as in the sample).
//
// Changed from the textbook:
// - `template <int BLOCK_SIZE>` → constexpr BLOCK_SIZE = 16;
// - `__shared__ float As[BLOCK_SIZE][BLOCK_SIZE]` (declared inside the loop, as the sample does) →
//   `block::shared<float, BLOCK_SIZE * BLOCK_SIZE>()` there; `As[ty][tx]` → `As[ty * BLOCK_SIZE + tx]`;
// - `float *C` written at `C[c + wB * ty + tx]`, c = wB·BLOCK_SIZE·by + BLOCK_SIZE·bx: that is the
//   thread's own (row, col) = (16·by + ty, 16·bx + tx), i.e. `index_2d()` on a
//   `disjoint_span2d<float>` with pitch wB: `*C.get_mut(own) = Csub`;
// - `int tx = threadIdx.x` etc. keep the sample's `int` (conversions from thread_idx()'s unsigned).
//
// Accepted by `carbide check` with no finding:
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

constexpr int BLOCK_SIZE = 16;

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(BLOCK_SIZE * BLOCK_SIZE)
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (BLOCK_SIZE, BLOCK_SIZE, 1))
void MatrixMulCUDA(carbide::disjoint_span2d<float> C, carbide::span<const float> A,
                   carbide::span<const float> B, int wA, int wB) {
  auto own = carbide::thread::index_2d();

  // Block index
  int bx = carbide::thread::block_idx().x;
  int by = carbide::thread::block_idx().y;

  // Thread index
  int tx = carbide::thread::thread_idx().x;
  int ty = carbide::thread::thread_idx().y;

  // Index of the first sub-matrix of A processed by the block
  int aBegin = wA * BLOCK_SIZE * by;

  // Index of the last sub-matrix of A processed by the block
  int aEnd = aBegin + wA - 1;

  // Step size used to iterate through the sub-matrices of A
  int aStep = BLOCK_SIZE;

  // Index of the first sub-matrix of B processed by the block
  int bBegin = BLOCK_SIZE * bx;

  // Step size used to iterate through the sub-matrices of B
  int bStep = BLOCK_SIZE * wB;

  // Csub is used to store the element of the block sub-matrix
  // that is computed by the thread
  float Csub = 0;

  // Loop over all the sub-matrices of A and B
  // required to compute the block sub-matrix
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    // Declaration of the shared memory array As used to
    // store the sub-matrix of A
    auto As = carbide::block::shared<float, BLOCK_SIZE * BLOCK_SIZE>();

    // Declaration of the shared memory array Bs used to
    // store the sub-matrix of B
    auto Bs = carbide::block::shared<float, BLOCK_SIZE * BLOCK_SIZE>();

    // Load the matrices from device memory
    // to shared memory; each thread loads
    // one element of each matrix
    As[ty * BLOCK_SIZE + tx] = A[a + wA * ty + tx];
    Bs[ty * BLOCK_SIZE + tx] = B[b + wB * ty + tx];

    // Synchronize to make sure the matrices are loaded
    carbide::block::sync();

    // Multiply the two matrices together;
    // each thread computes one element
    // of the block sub-matrix
    for (int k = 0; k < BLOCK_SIZE; ++k) {
      Csub += As[ty * BLOCK_SIZE + k] * Bs[k * BLOCK_SIZE + tx];
    }

    // Synchronize to make sure that the preceding
    // computation is done before loading two new
    // sub-matrices of A and B in the next iteration
    carbide::block::sync();
  }

  // Write the block sub-matrix to device memory;
  // each thread writes one element
  if (float* c = C.get_mut(own)) *c = Csub;
}

}  // namespace kernels
