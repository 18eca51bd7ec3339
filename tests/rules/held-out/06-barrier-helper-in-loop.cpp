// VIOLATION: the same barrier helper called once per loop iteration: iteration k's read and iteration k+1's write share a phase
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
namespace kernels {
float smooth(const carbide::thread::local_index_witness& l, float v) {
  auto t = carbide::block::shared<float, 128>();
  t[l] = v;
  carbide::block::sync();
  return 0.5f * (v + t[(l.get() + 1) % 128]);
}
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out, unsigned steps) {
  auto lid = carbide::thread::local_index();
  float v = float(lid.get());
  for (unsigned s = 0; s < steps; ++s) v = smooth(lid, v);
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = v;
}
}
// CHECK: 06-barrier-helper-in-loop.cpp:17:44: error: 't[(l.get() + 1) % 128]' (in the helper called by 'smooth(lid, v)') reads a slot of 't' that another thread may write in this barrier phase; put carbide::block::sync() between the write and the read [carbide-shared-race]
