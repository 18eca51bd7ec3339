// VIOLATION: dynamic shared memory taken as float and as double: `f[lid]` and `d[lid]` compared by element index, not by byte (listed as open in soundness.md)
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
namespace kernels {
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1), dynamic_shared = 2048)
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto f = carbide::block::dynamic_shared<float>();
  auto d = carbide::block::dynamic_shared<double>();
  f[lid] = 1.f;
  d[lid] = 2.0;
  carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = f[lid];
}
}
// CHECK: 04-dynamic-shared-two-types.cpp:13:3: error: 'd[lid]' and 'f[lid]' may write the same slot of dynamic shared memory from different threads in one barrier phase; make the slots provably distinct or separate the writes with carbide::block::sync() [carbide-shared-race]
