// CORRECT (precision): near 23: a lambda claims with get_mut, the same form as the kernel
// RUN: %corpus_check %s
#include <carbide/carbide.hpp>
namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto idx = carbide::thread::index_1d();
  auto put = [](const carbide::disjoint_span<float>& v, const carbide::thread::index_1d_witness& w) {
    if (float* e = v.get_mut(w)) *e = 2.f;
  };
  put(out, idx);
  if (float* o = out.get_mut(idx)) *o = 1.f;
}
}
