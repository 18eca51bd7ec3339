// VIOLATION: a generic lambda taking the shared handle as a parameter returns `float&` to `t[i]`; the caller writes through it
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
namespace kernels {
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 128>();
  auto at = [](auto& t, unsigned i) -> float& { return t[i]; };
  at(tile, lid.get() / 2) = 1.f;
  carbide::block::sync();
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = tile[lid];
}
}
// CHECK: 02-lambda-returns-shared-ref.cpp:12:3: error: 't[i]' (in the helper called by 'at(tile, lid.get() / 2)') may update the same slot of 'tile' from different threads at once; count with tile.fetch_add(i, v), an atomic add, or index it by the local witness [carbide-shared-race]
