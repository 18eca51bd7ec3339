// CORRECT (precision): near 20: a copy of the view claimed with the same form only
// RUN: %corpus_check %s
#include <carbide/carbide.hpp>
namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto idx = carbide::thread::index_1d();
  carbide::disjoint_span<float> other = out;
  if (float* e = other.get_mut(idx)) *e = 2.f;
  if (float* o = out.get_mut(idx)) *o = 1.f;
}
}
