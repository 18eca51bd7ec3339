// CORRECT (precision): near 20-23: the view claimed only as chunks of 4, in the kernel and in a lambda
// RUN: %corpus_check %s
#include <carbide/carbide.hpp>
namespace kernels {
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (auto c = out.get_mut_chunk<4>(idx)) c[0] = 2.f;
  auto put = [](const carbide::disjoint_span<float>& v, const carbide::thread::index_1d_witness& w) {
    if (auto c = v.get_mut_chunk<4>(w)) c[1] = 3.f;
  };
  put(out, idx);
}
}
