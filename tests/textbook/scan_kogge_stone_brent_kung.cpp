// scan_kogge_stone_brent_kung.cpp — port of "Programming Massively Parallel Processors" (Hwu,
// Kirk, El Hajj, 4th ed.), chapter 11: `Kogge_Stone_scan_kernel` (in place, the new value held in
// a register between two barriers per step) and `Brent_Kung_scan_kernel` (two elements a thread,
// the reduction tree `index = (threadIdx.x + 1) * 2 * stride - 1` and its reverse tree).
//
// Changed from the textbook, vocabulary only:
// - `__shared__ float XY[SECTION_SIZE]` → `block::shared<float, SECTION_SIZE>()`,
//   `__syncthreads()` → `block::sync()`, `threadIdx.x` etc. → `thread::thread_idx().x` etc.;
// - SECTION_SIZE fixed by the contract's block (the book launches SECTION_SIZE threads, or half);
// - `if (i < N) Y[i] = XY[threadIdx.x]` → `Y.get_mut(idx)`; Brent-Kung's two stores,
//   `Y[i]` and `Y[i + blockDim.x]`, are the thread's strided pieces `get_mut_strided_chunks<1, 2>`.
//
// Accepted by `carbide check` with no finding (session 14, as first ported):
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

constexpr unsigned SECTION_SIZE = 512;

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(SECTION_SIZE)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (SECTION_SIZE, 1, 1))
void Kogge_Stone_scan_kernel(carbide::span<const float> X, carbide::disjoint_span<float> Y, unsigned N) {
  auto idx = carbide::thread::index_1d();
  auto XY = carbide::block::shared<float, SECTION_SIZE>();
  unsigned tx = carbide::thread::thread_idx().x;
  unsigned i = carbide::thread::block_idx().x * carbide::thread::block_dim().x + tx;
  if (i < N) XY[tx] = X[i]; else XY[tx] = 0.0f;
  for (unsigned stride = 1; stride < carbide::thread::block_dim().x; stride *= 2) {
    carbide::block::sync();
    float temp;
    if (tx >= stride) temp = XY[tx] + XY[tx - stride];
    carbide::block::sync();
    if (tx >= stride) XY[tx] = temp;
  }
  if (float* y = Y.get_mut(idx)) *y = XY[tx];
}
// PMPP Fig 11.7 Brent-Kung scan (two elements per thread)
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(SECTION_SIZE / 2)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (SECTION_SIZE / 2, 1, 1))
void Brent_Kung_scan_kernel(carbide::span<const float> X, carbide::disjoint_span<float> Y, unsigned N) {
  auto idx = carbide::thread::index_1d();
  auto XY = carbide::block::shared<float, SECTION_SIZE>();
  unsigned tx = carbide::thread::thread_idx().x;
  unsigned i = 2 * carbide::thread::block_idx().x * carbide::thread::block_dim().x + tx;
  if (i < N) XY[tx] = X[i];
  if (i + carbide::thread::block_dim().x < N) XY[tx + carbide::thread::block_dim().x] = X[i + carbide::thread::block_dim().x];
  for (unsigned stride = 1; stride <= carbide::thread::block_dim().x; stride *= 2) {
    carbide::block::sync();
    unsigned index = (tx + 1) * 2 * stride - 1;
    if (index < SECTION_SIZE) XY[index] += XY[index - stride];
  }
  for (unsigned stride = SECTION_SIZE / 4; stride > 0; stride /= 2) {
    carbide::block::sync();
    unsigned index = (tx + 1) * stride * 2 - 1;
    if (index + stride < SECTION_SIZE) XY[index + stride] += XY[index];
  }
  carbide::block::sync();
  if (auto mine = Y.get_mut_strided_chunks<1, 2>(idx)) {
    mine.store(0, carbide::vec<float, 1>{{XY[tx]}});
    mine.store(1, carbide::vec<float, 1>{{XY[tx + carbide::thread::block_dim().x]}});
  }
}

}  // namespace kernels
