// VIOLATION: a `get_mut_chunk<4>` claim made inside a member function of a user struct is not merged with the kernel's `get_mut` claim
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
namespace kernels {
struct Writer {
  void put(const carbide::disjoint_span<float>& v, const carbide::thread::index_1d_witness& w) const {
    if (auto c = v.get_mut_chunk<4>(w)) c[0] = 2.f;
  }
};
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 1.f;
  const Writer writer{};
  writer.put(out, idx);
}
}
// CHECK: 22-claim-in-member-function.cpp:17:3: error: 'writer.put(out, idx)' claims 'out' as 'get_mut_chunk<4>' (through 'v.get_mut_chunk<4>(w)') after 'out.get_mut(idx)' claimed it as 'get_mut'; the two forms give some elements to two threads. Claim every piece of 'out' the same way [carbide-disjoint-foreign-write]
