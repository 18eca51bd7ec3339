// carbide-unsafe-required in generic lambdas and templates
// (issue 29): a generic lambda or a member of a class template is checked in every instance the
// kernel calls, where its types are known, not only as its dependent pattern.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

template <class T>
struct Writer {
  void write(T* at, T value) const { at[1] = value; }
  // CHECK: unsafe-required-generic.cpp:[[@LINE-1]]:38: error: indexing through raw pointer 'at', whose target the checker cannot tell
};

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void generic(carbide::disjoint_span<float> out, float x) {
  auto idx = carbide::thread::index_1d();
  if (float* e = out.get_mut(idx)) [](auto p, float v) { p[1] = v; }(e, x);
  // CHECK: unsafe-required-generic.cpp:[[@LINE-1]]:58: error: indexing through raw pointer 'p', whose target the checker cannot tell
  if (float* e = out.get_mut(idx)) Writer<float>{}.write(e, x);
}

// Good: a generic lambda that writes the element it is given, by reference.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void good(carbide::disjoint_span<float> out, float x) {
  auto idx = carbide::thread::index_1d();
  auto set = [](auto& element, auto value) { element = value; };
  if (float* e = out.get_mut(idx)) set(*e, x);
}

}  // namespace kernels
