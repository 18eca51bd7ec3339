// CORRECT (precision): near 04: dynamic shared memory as one type, own slot, barrier, neighbour
// RUN: %corpus_check %s
#include <carbide/carbide.hpp>
namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1), dynamic_shared = 512)
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto idx = carbide::thread::index_1d();
  auto f = carbide::block::dynamic_shared<float>();
  f[lid] = 1.f;
  carbide::block::sync();
  const float seen = f[(lid.get() + 1) % 128];
  if (float* o = out.get_mut(idx)) *o = seen;
}
}
