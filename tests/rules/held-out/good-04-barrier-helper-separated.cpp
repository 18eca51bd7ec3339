// CORRECT (precision): near 05: the barrier helper called twice with a barrier between the calls
// RUN: %corpus_check %s
#include <carbide/carbide.hpp>
namespace kernels {
float neighbour(const carbide::thread::local_index_witness& l, float v) {
  auto t = carbide::block::shared<float, 128>();
  t[l] = v;
  carbide::block::sync();
  return t[(l.get() + 1) % 128];
}
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto idx = carbide::thread::index_1d();
  const float a = neighbour(lid, 1.f);
  carbide::block::sync();
  const float b = neighbour(lid, a);
  if (float* o = out.get_mut(idx)) *o = b;
}
}
