// VIOLATION: `second((block::sync(), 0), tile[neighbour])`: argument order is unspecified; the walker assumes left to right, GCC (the CPU form) and possibly nvcc read the neighbour first
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
namespace kernels {
float second(int, float v) { return v; }
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out, unsigned n) {
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 128>();
  tile[lid] = 1.f;
  const float seen = second((carbide::block::sync(), 0), tile[(lid.get() + 1) % 128]);
  carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = seen;
}
}
// CHECK: 19-argument-order.cpp:13:30: error: 'carbide::block::sync()' is a barrier inside a larger expression, where C++ does not fix the order it runs in against the rest (or never runs it): call it as a statement of its own [carbide-device-unsupported]
