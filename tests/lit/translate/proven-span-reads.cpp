// A span read whose index every way into it has just tested against that view's size (a loop
// bound, an if, a ?:, an &&, a grid-stride loop over the view), or a witness read of the view a
// contract says the grid covers, is emitted without its bounds check; every other read keeps it. In the PTX, the kernel whose reads are all proven selects no
// address (a checked read is `selp` of the element's address and 0).
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck %s < %t/proven-span-reads.carbide.cu
// RUN: awk '/.entry carbide_proofs_sums\(/,/^}/' %t/proven-span-reads.ptx > %t/sums.ptx
// RUN: FileCheck --check-prefix=PROVEN --implicit-check-not=selp %s < %t/sums.ptx
// RUN: awk '/.entry carbide_proofs_unproven\(/,/^}/' %t/proven-span-reads.ptx > %t/unproven.ptx
// RUN: FileCheck --check-prefix=CHECKED %s < %t/unproven.ptx
// RUN: FileCheck --check-prefix=STUB %s < %t/proven-span-reads.carbide.cpp
// RUN: awk '/.entry carbide_proofs_covered\(/,/^}/' %t/proven-span-reads.ptx > %t/covered.ptx
// RUN: FileCheck --check-prefix=PROVEN --implicit-check-not=selp %s < %t/covered.ptx
// RUN: %ptxas -arch=sm_90 %t/proven-span-reads.ptx -o /dev/null
// STUB-LABEL: void Module::sums(
// STUB-NOT: validate_exact_cover
// STUB-LABEL: void Module::covered(
// STUB: carbide::validate_exact_cover("proofs::covered", "a", a.size(), prepared.config());
// PROVEN: ld.global.nc.f32
// CHECKED: selp.b64
// CHECKED: ld.global.nc.f32
#include <carbide/carbide.hpp>

namespace proofs {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void sums(carbide::span<const float> x, carbide::span<const float> y, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  float sum = 0.f;
  // CHECK: for (std::size_t i = idx.get(); i < x.size(); i += 4096) sum += x[::carbide::detail::in_range(i)];
  for (std::size_t i = idx.get(); i < x.size(); i += 4096) sum += x[i];
  // CHECK: if (idx.get() < y.size() && idx.get() < x.size()) sum += x[::carbide::detail::in_range(idx.get())] * y[::carbide::detail::in_range(idx.get())];
  if (idx.get() < y.size() && idx.get() < x.size()) sum += x[idx.get()] * y[idx.get()];
  // CHECK: sum += idx.get() < y.size() ? y[::carbide::detail::in_range(idx.get())] : 0.f;
  sum += idx.get() < y.size() ? y[idx.get()] : 0.f;
  // CHECK: for (auto w : carbide::thread::grid_stride(y)) sum += y[::carbide::detail::in_range(w.get())];
  for (auto w : carbide::thread::grid_stride(y)) sum += y[w.get()];
  if (float* e = out.get_mut(idx)) *e = sum;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void unproven(carbide::span<const float> x, carbide::span<const float> y, carbide::disjoint_span<float> out,
              std::size_t offset) {
  auto idx = carbide::thread::index_1d();
  float sum = 0.f;
  // Tested against out, read from x: checked.
  // CHECK: if (out.get_mut(idx)) sum += x[idx.get()];
  if (out.get_mut(idx)) sum += x[idx.get()];
  // Tested against y, read from x: checked.
  // CHECK: if (idx.get() < y.size()) sum += x[idx.get()] + y[::carbide::detail::in_range(idx.get())];
  if (idx.get() < y.size()) sum += x[idx.get()] + y[idx.get()];
  // Moved after the test: checked.
  std::size_t i = idx.get();
  // CHECK: if (i < x.size()) { i += offset; sum += x[i]; }
  if (i < x.size()) { i += offset; sum += x[i]; }
  // CHECK: if (float* e = out.get_mut(idx)) *e = sum + x[offset];
  if (float* e = out.get_mut(idx)) *e = sum + x[offset];
}

// With `covers = a` the launch gives the grid exactly a.size() threads, so every index_1d()
// witness lies inside `a`; `b` keeps its check.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1), covers = a)
void covered(carbide::span<const float> a, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  // CHECK: if (float* e = out.get_mut(idx)) *e = 2.f * a[::carbide::detail::in_range(idx.get())];
  if (float* e = out.get_mut(idx)) *e = 2.f * a[idx.get()];
}

}  // namespace proofs
