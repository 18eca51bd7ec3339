// carbide-witness-escape: a witness stays with its thread.
// RUN: not %carbide check %s -- -std=c++20 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
#include <utility>

namespace kernels {

struct Cursor {
  const carbide::thread::index_1d_witness* at;
};

const carbide::thread::index_1d_witness& pass_back(const carbide::thread::index_1d_witness& w) {
  return w;
  // CHECK: witness-escape.cpp:[[@LINE-1]]:3: error: a thread-index witness is returned{{.*}} [carbide-witness-escape]
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void stash(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  Cursor cursor{&idx};
  // CHECK: witness-escape.cpp:[[@LINE-1]]:17: error: the address of witness 'idx' is taken
  auto later = [&idx, &out]() { return out.get_mut(idx); };
  // CHECK: witness-escape.cpp:[[@LINE-1]]:18: error: witness 'idx' is captured by reference
  if (float* o = out.get_mut(pass_back(idx))) *o = cursor.at != nullptr;
  (void)later;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void hand_over(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const auto& alias = std::move(idx);
  // CHECK: witness-escape.cpp:[[@LINE-1]]:23: error: witness 'idx' is moved
  if (float* o = out.get_mut(alias)) *o = 1.f;
}

// A witness bound into an object's reference member, by braces or (C++20) parentheses. (A
// witness read through a pointer is a raw-pointer dereference: carbide-unsafe-required.)
struct Window {
  const carbide::thread::index_1d_witness& at;
  unsigned cols;
};

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void bind_in_struct(carbide::span<const float> in, carbide::disjoint_span<float> out, unsigned cols) {
  auto idx = carbide::thread::index_1d();
  const Window braces{idx, cols};
  // CHECK: witness-escape.cpp:[[@LINE-1]]:23: error: witness 'idx' is stored in an object
  float through = in[braces.at.get()];
#if __cplusplus >= 202002L  // the lit run is C++20; the plugin comparison reads the file as C++17
  const Window parens(idx, cols);
  // CHECK: witness-escape.cpp:[[@LINE-1]]:23: error: witness 'idx' is stored in an object
  through += in[parens.at.get()];
#endif
  if (float* o = out.get_mut(idx)) *o = through;
}

// Good: witnesses passed down by const& to helpers and lambdas.
float weight(const carbide::thread::index_1d_witness& w) { return float(w.get() % 7); }

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void good(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto scaled = [](const carbide::thread::index_1d_witness& w) { return 2.f * weight(w); };
  if (float* o = out.get_mut(idx)) *o = scaled(idx);
}

}  // namespace kernels
