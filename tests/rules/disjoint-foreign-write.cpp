// carbide-disjoint-foreign-write: the pointer get_mut returns reaches one element only.
// RUN: not %carbide check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

// A 3-point smoothing written by writing the neighbours too.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void smear(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* c_elem = out.get_mut(idx)) {
    *c_elem = in[idx.get()];
    c_elem[1] = 0.5f * in[idx.get()];
    // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:5: error: 'c_elem[1]' reaches past the element that 'out.get_mut(idx)' gave this thread; that element belongs to another thread [carbide-disjoint-foreign-write]
    // CHECK: disjoint-foreign-write.cpp:[[@LINE-6]]:73: note: 'out' is a carbide::disjoint_span: each thread owns exactly one element
  }
}

// A histogram-like scatter through pointer arithmetic.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void scatter(carbide::span<const int> offsets, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  float* slot = out.get_mut(idx);
  if (slot == nullptr) return;
  float* target = slot + offsets[idx.get()];
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:19: error: 'slot + offsets[idx.get()]' moves away from the element that 'out.get_mut(idx)' gave this thread
  // CHECK: note: 'out' is a carbide::disjoint_span
  ++slot;
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:3: error: '++slot' moves away from the element
  // CHECK: note: 'out' is a carbide::disjoint_span
  *slot = 1.f;
  (void)target;
}

// Good: the element itself, also as p[0], and arithmetic on the value, not the pointer.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void good(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* e = out.get_mut(idx)) {
    *e = in[idx.get()] + 1.f;
    e[0] += 1.f;
  }
}

}  // namespace kernels
