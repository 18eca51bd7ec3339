// CORRECT (precision): near 16-19: write, a plain barrier statement, neighbour read
// RUN: %corpus_check %s
#include <carbide/carbide.hpp>
namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto idx = carbide::thread::index_1d();
  auto tile = carbide::block::shared<float, 128>();
  tile[lid] = 1.f;
  carbide::block::sync();
  float seen = 0.f;
  seen = tile[(lid.get() + 1) % 128];
  if (float* o = out.get_mut(idx)) *o = seen;
}
}
