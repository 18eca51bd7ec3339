// VIOLATION: `auto& alias = out;` then `get_mut` on `out` and `get_mut_chunk<4>` on `alias`
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
namespace kernels {
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto& alias = out;
  if (float* o = out.get_mut(idx)) *o = 1.f;
  if (auto c = alias.get_mut_chunk<4>(idx)) c[0] = 2.f;
}
}
// CHECK: 21-claim-through-view-reference.cpp:13:16: error: 'alias.get_mut_chunk<4>(idx)' claims 'out' as 'get_mut_chunk<4>' after 'out.get_mut(idx)' claimed it as 'get_mut'; the two forms give some elements to two threads. Claim every piece of 'out' the same way [carbide-disjoint-foreign-write]
