// carbide-constant-table, accepted: tables of numbers, of CUDA's vector types, of two dimensions
// and single values, read by kernels and helpers with indexes the checker proves or checks; host
// code reads only their size.
// RUN: %corpus_check %s 2> %t.err
// RUN: FileCheck %s --allow-empty --implicit-check-not=error: --implicit-check-not=warning: < %t.err
#include <carbide/carbide.hpp>

namespace filters {

constexpr int kRadius = 8;
constexpr int kTaps = 2 * kRadius + 1;

CARBIDE_CONSTANT float taps[kTaps];
CARBIDE_CONSTANT float4 colours[16] = {};
CARBIDE_CONSTANT float mix[4][4];
CARBIDE_CONSTANT float gain;

float tap(int j) { return taps[j + kRadius]; }

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void convolve(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const int i = int(idx.get());
  float sum = 0.f;
  for (int j = -kRadius; j <= kRadius; ++j) {
    const int at = i + j;
    if (at >= 0 && at < int(in.size())) sum += tap(j) * in[at];
  }
  const float4 c = colours[i % 16];
  if (float* o = out.get_mut(idx)) *o = gain * (sum + c.x + mix[i % 4][(i / 4) % 4]);
}

}  // namespace filters

// Host code may ask a table's size (sizeof reads no value); it sets a table through the module
// (tests/lit/cpu/constant-tables.cpp), which this file leaves out so that carbide-tidy, which sees
// no generated API here, compares it too.
static_assert(sizeof(filters::colours) == 16 * sizeof(float4));
