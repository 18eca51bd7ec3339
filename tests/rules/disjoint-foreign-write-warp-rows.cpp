// The warp forms: a row length that differs between threads (in the kernel, and passed to a
// helper by one of its calls), a warp's row claimed beside another form of the same view, and a
// step past the element the warp leader form gave lane 0.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

// Rows of two lengths overlap: warp 1's row of 96 starts inside warp 0's row of 100.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void varying_length(carbide::disjoint_span<float> out, unsigned cols) {
  auto warp = carbide::thread::warp_index_1d();
  const unsigned lane = carbide::thread::lane().get();
  auto row = out.get_mut_warp_row(warp, cols - lane / 8);
  // CHECK: disjoint-foreign-write-warp-rows.cpp:[[@LINE-1]]:41: error: the row length 'cols - lane / 8' of 'out.get_mut_warp_row(warp, cols - lane / 8)' may differ between threads or change while the kernel runs
  for (unsigned k = 0; k < row.count(); ++k) row[k] = 1.f;
}

// Thread 1's element under get_mut is column 1 of warp 0's row, lane 1's.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void two_forms(carbide::disjoint_span<float> out, unsigned cols) {
  auto warp = carbide::thread::warp_index_1d();
  auto idx = carbide::thread::index_1d();
  auto row = out.get_mut_warp_row(warp, cols);
  for (unsigned k = 0; k < row.count(); ++k) row[k] = 1.f;
  if (float* e = out.get_mut(idx)) *e = 2.f;
  // CHECK: disjoint-foreign-write-warp-rows.cpp:[[@LINE-1]]:18: error: 'out.get_mut(idx)' claims 'out' as 'get_mut' after 'out.get_mut_warp_row(warp, cols)' claimed it as 'get_mut_warp_row(row length cols)'
  // CHECK: disjoint-foreign-write-warp-rows.cpp:[[@LINE-4]]:14: note: the other form
}

// The next row's scalar belongs to the next warp.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void past_the_leader(carbide::disjoint_span<float> mean) {
  auto warp = carbide::thread::warp_index_1d();
  if (float* m = mean.get_mut_warp_leader(warp)) m[1] = 0.f;
  // CHECK: disjoint-foreign-write-warp-rows.cpp:[[@LINE-1]]:50: error: 'm[1]' reaches past the element that 'mean.get_mut_warp_leader(warp)' gave this thread; that element belongs to another thread
  // CHECK: disjoint-foreign-write-warp-rows.cpp:[[@LINE-4]]:52: note: 'mean' is a carbide::disjoint_span
}

// The helper's row length is invariant at one call and not at the other.
void fill(const carbide::thread::warp_index_witness& warp, carbide::disjoint_span<float> out, unsigned cols) {
  auto row = out.get_mut_warp_row(warp, cols);
  // CHECK: disjoint-foreign-write-warp-rows.cpp:[[@LINE-1]]:41: error: the row length 'cols' of 'out.get_mut_warp_row(warp, cols)' may differ between threads or change while the kernel runs
  for (unsigned k = 0; k < row.count(); ++k) row[k] = 1.f;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void invariant_call(carbide::disjoint_span<float> out, unsigned cols) {
  auto warp = carbide::thread::warp_index_1d();
  fill(warp, out, cols);
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void varying_call(carbide::disjoint_span<float> out, unsigned cols) {
  auto warp = carbide::thread::warp_index_1d();
  fill(warp, out, cols + carbide::thread::lane().get() / 16);
}

}  // namespace kernels
