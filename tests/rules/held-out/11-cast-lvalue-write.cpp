// VIOLATION: `static_cast<float&>(tile[0]) = x`: parent is an explicit cast, classified as a read
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out, unsigned n) {
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 128>();
  static_cast<float&>(tile[0]) = float(lid.get());
  carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = tile[0];
}
}
// CHECK: 11-cast-lvalue-write.cpp:12:23: error: 'tile[0]' may update the same slot of 'tile' from different threads at once; count with tile.fetch_add(i, v), an atomic add, or index it by the local witness [carbide-shared-race]
