// Rows that do not hold whole warps, and block barriers after a warp's exit: a warp-uniform exit
// keeps only warp collectives reachable.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

// Rows of 16: a warp holds two rows, and one may leave while the other stays.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 8, 1))
void short_rows(carbide::disjoint_span2d<float> out, unsigned rows) {
  auto idx = carbide::thread::index_2d();
  const unsigned row = carbide::thread::block_idx().y * 8 + carbide::thread::thread_idx().y;
  if (row >= rows) return;
  const float sum = carbide::warp::reduce_add(1.f);
  // CHECK: divergent-barrier-warp-rows.cpp:[[@LINE-1]]:21: error: 'carbide::warp::reduce_add(1.f)' comes after a thread-dependent early return; every lane of the warp must reach it
  if (float* o = out.get_mut(idx)) *o = sum;
}

// A whole warp leaves, but the block barrier needs every warp.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 4, 1))
void barrier_after_row_exit(carbide::disjoint_span2d<float> out, unsigned rows) {
  auto idx = carbide::thread::index_2d();
  const unsigned row = carbide::thread::block_idx().y * 4 + carbide::thread::thread_idx().y;
  if (row >= rows) return;
  carbide::block::sync();
  // CHECK: divergent-barrier-warp-rows.cpp:[[@LINE-1]]:3: error: 'carbide::block::sync()' comes after a thread-dependent early return; every thread of the block must reach it
  if (float* o = out.get_mut(idx)) *o = 1.f;
}

// Division rounds toward zero: (tx - 32) / 32 is -1 for lane 0 and 0 for the rest of warp 0.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (64, 1, 1))
void rounded_warp(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const int warp = (int(carbide::thread::thread_idx().x) - 32) / 32;
  if (warp < 0) return;
  const float sum = carbide::warp::reduce_add(1.f);
  // CHECK: divergent-barrier-warp-rows.cpp:[[@LINE-1]]:21: error: 'carbide::warp::reduce_add(1.f)' comes after a thread-dependent early return; every lane of the warp must reach it
  if (float* o = out.get_mut(idx)) *o = sum;
}

// A warp past the last row leaves: its number is warp-uniform, but a block barrier needs every warp.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void barrier_after_warp_exit(carbide::disjoint_span<float> mean, unsigned rows) {
  auto warp = carbide::thread::warp_index_1d();
  if (warp.get() >= rows) return;
  carbide::block::sync();
  // CHECK: divergent-barrier-warp-rows.cpp:[[@LINE-1]]:3: error: 'carbide::block::sync()' comes after a thread-dependent early return; every thread of the block must reach it
  if (float* m = mean.get_mut_warp_leader(warp)) *m = 0.f;
}

// The warp's number plus the lane differs across the warp.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void lanes_leave(carbide::disjoint_span<float> mean, unsigned rows) {
  auto warp = carbide::thread::warp_index_1d();
  if (warp.get() * 32 + carbide::thread::lane().get() >= rows) return;
  const float sum = carbide::warp::reduce_add(1.f);
  // CHECK: divergent-barrier-warp-rows.cpp:[[@LINE-1]]:21: error: 'carbide::warp::reduce_add(1.f)' comes after a thread-dependent early return; every lane of the warp must reach it
  if (float* m = mean.get_mut_warp_leader(warp)) *m = sum;
}

}  // namespace kernels
