// carbide-global-write: device code may not write shared host-side storage.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

int g_launches = 0;
float g_histogram[256];
constexpr float kScale = 2.f;

// Counting launches and building a histogram in namespace-scope storage.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void histogram(carbide::span<const unsigned> bins, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  ++g_launches;
  // CHECK: global-write.cpp:[[@LINE-1]]:3: error: device code writes namespace-scope variable 'g_launches', which every thread of every block shares; write results through a carbide::disjoint_span or carbide::atomic_span parameter [carbide-global-write]
  // CHECK: global-write.cpp:8:5: note: 'g_launches' declared here
  g_histogram[bins[idx.get()] % 256] += 1.f;
  // CHECK: global-write.cpp:[[@LINE-1]]:3: error: device code writes namespace-scope variable 'g_histogram'
  // CHECK: note: 'g_histogram' declared here
  if (float* o = out.get_mut(idx)) *o = kScale;
}

// A helper caching a value in a static local.
float cached_scale(float x) {
  static float last = 0.f;
  last = x;
  // CHECK: global-write.cpp:[[@LINE-1]]:3: error: device code writes static local 'last'
  // CHECK: note: 'last' declared here
  return last;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void scale(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = cached_scale(in[idx.get()]);
}

// Good: reading constants and writing locals.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void good(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  float local = kScale;
  local *= in[idx.get()];
  if (float* o = out.get_mut(idx)) *o = local;
}

}  // namespace kernels
