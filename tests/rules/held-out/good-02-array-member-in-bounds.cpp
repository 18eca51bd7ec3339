// CORRECT (precision): near 03: each thread writes both members of its own element
// RUN: %corpus_check %s
#include <carbide/carbide.hpp>
namespace kernels {
struct Pair { float v[2]; };
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto idx = carbide::thread::index_1d();
  auto tile = carbide::block::shared<Pair, 128>();
  tile[lid].v[0] = 1.f;
  tile[lid].v[1] = 2.f;
  carbide::block::sync();
  const float seen = tile[(lid.get() + 1) % 128].v[1];
  if (float* o = out.get_mut(idx)) *o = seen;
}
}
