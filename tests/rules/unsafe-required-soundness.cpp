// carbide-unsafe-required where the checker cannot see the memory (issue 29): a pointer into a
// view given to library code (memcpy, memset, std::copy, std::fill_n), and a pointer taken through
// a reference member, which is not the thread's own storage however local its object is.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

#include <algorithm>
#include <cstring>

namespace kernels {

struct Slot {
  float& value;
};

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void library_writes(carbide::disjoint_span<float> out, carbide::span<const float> in) {
  auto idx = carbide::thread::index_1d();
  const float two[2] = {1.f, 2.f};
  if (float* e = out.get_mut(idx)) {
    std::memcpy(e, two, sizeof two);
    // CHECK: unsafe-required-soundness.cpp:[[@LINE-1]]:17: error: 'memcpy' is given raw pointer 'e', and library code is not checked
    std::memset(e, 0, 8);
    // CHECK: unsafe-required-soundness.cpp:[[@LINE-1]]:17: error: 'memset' is given raw pointer 'e'
    std::fill_n(e, 2, 0.f);
    // CHECK: unsafe-required-soundness.cpp:[[@LINE-1]]:17: error: 'std::fill_n' is given raw pointer 'e'
    std::copy(in.data(), in.data() + 2, e);
    // CHECK: unsafe-required-soundness.cpp:[[@LINE-1]]:15: error: 'std::copy' is given raw pointer 'in.data()'
    // CHECK: unsafe-required-soundness.cpp:[[@LINE-2]]:26: error: 'std::copy' is given raw pointer 'in.data() + 2'
    // CHECK: unsafe-required-soundness.cpp:[[@LINE-3]]:41: error: 'std::copy' is given raw pointer 'e'
  }
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void through_reference_member(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* e = out.get_mut(idx)) {
    Slot slot{*e};
    float* next = &slot.value;
    next[1] = 0.f;
    // CHECK: unsafe-required-soundness.cpp:[[@LINE-1]]:5: error: indexing through raw pointer 'next', whose target the checker cannot tell
  }
}

// Good: library code on the thread's own locals, and memcpy under CARBIDE_UNSAFE with a reason.
struct Pair {
  float a, b;
};

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void good(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  float local[4] = {};
  std::fill_n(local, 4, 1.f);
  Pair pair{};
  std::memcpy(&pair.a, &local[0], sizeof(float));
  if (float* e = out.get_mut(idx)) {
    CARBIDE_UNSAFE("one float: the thread's own element") { std::memcpy(e, &pair.a, sizeof(float)); }
  }
}

}  // namespace kernels
