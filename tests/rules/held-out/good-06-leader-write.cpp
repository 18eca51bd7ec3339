// CORRECT (precision): near 09-11: one thread writes slot 0, all read it after the barrier
// RUN: %corpus_check %s
#include <carbide/carbide.hpp>
namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto idx = carbide::thread::index_1d();
  auto tile = carbide::block::shared<float, 128>();
  if (lid.get() == 0) tile[0] = 3.f;
  carbide::block::sync();
  const float seen = tile[0];
  if (float* o = out.get_mut(idx)) *o = seen;
}
}
