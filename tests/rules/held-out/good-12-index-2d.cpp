// CORRECT (precision): near 24: a 2-D kernel writes through index_2d
// RUN: %corpus_check %s
#include <carbide/carbide.hpp>
namespace kernels {
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void k(carbide::disjoint_span2d<float> out) {
  auto idx = carbide::thread::index_2d();
  if (float* o = out.get_mut(idx)) *o = float(carbide::thread::thread_idx().y);
}
}
