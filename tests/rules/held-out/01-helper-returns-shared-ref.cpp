// VIOLATION: a helper returns `float&` into a shared array; the write happens at the caller on the returned reference, which the access classifier takes as a read (parent is a ReturnStmt)
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
namespace kernels {
float& pick(carbide::shared_array<float, 128>& t, unsigned i) { return t[i]; }
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 128>();
  pick(tile, 0) = float(lid.get());
  carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = tile[lid];
}
}
// CHECK: 01-helper-returns-shared-ref.cpp:12:3: error: 't[i]' (in the helper called by 'pick(tile, 0)') may update the same slot of 'tile' from different threads at once; count with tile.fetch_add(i, v), an atomic add, or index it by the local witness [carbide-shared-race]
