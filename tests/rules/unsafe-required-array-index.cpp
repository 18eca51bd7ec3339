// A thread's C array indexed where the checker cannot prove the index inside it is checked at
// run time by the generated code, which wraps the array operand (tests/lit/cpu/array-index.cpp):
// no finding. Where there is no operand in the file to wrap (the index written first, `j[a]`, or
// the array named in a macro's body), the subscript is reported unless its index is a constant
// inside the array.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: --implicit-check-not=warning: < %t.err
#include <carbide/carbide.hpp>

#define FIRST_TAP taps[0]
#define TAP_AT(i) taps[i]
#define PICK(a, i) a[i]

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void reversed(carbide::disjoint_span<float> out, int j) {
  auto idx = carbide::thread::index_1d();
  float taps[4] = {1.f, 2.f, 3.f, 4.f};
  const float s = j[taps];
  // CHECK: unsafe-required-array-index.cpp:[[@LINE-1]]:19: error: the index of 'j[taps]' cannot be checked: the array is not written before its index in this file (a macro's body, or `i[a]`), and the checker cannot prove the index inside its 4 elements; write `a[i]` in the file, or wrap it in CARBIDE_UNSAFE("why this is sound") { ... } or reach the memory through a view [carbide-unsafe-required]
  if (float* e = out.get_mut(idx)) *e = s + 2[taps];
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void in_a_macro(carbide::disjoint_span<float> out, int j) {
  auto idx = carbide::thread::index_1d();
  float taps[4] = {1.f, 2.f, 3.f, 4.f};
  const float s = TAP_AT(j);
  // CHECK: unsafe-required-array-index.cpp:[[@LINE-1]]:19: error: the index of 'TAP_AT(j)' cannot be checked
  if (float* e = out.get_mut(idx)) *e = s + FIRST_TAP + PICK(taps, j);
}

// Checked at run time, or proven: no finding.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void checked_or_proven(carbide::disjoint_span<float> out, int j) {
  auto idx = carbide::thread::index_1d();
  float taps[4] = {1.f, 2.f, 3.f, 4.f};
  float grid[2][4] = {};
  for (int k = 0; k < 4; ++k) grid[1][k] = taps[k];
  if (float* e = out.get_mut(idx)) *e = taps[j] + grid[j][j] + grid[1][3];
}

}  // namespace kernels
