// CORRECT (precision): near 07: each thread writes a member of its own element
// RUN: %corpus_check %s
#include <carbide/carbide.hpp>
namespace kernels {
struct Cell { float v; };
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto idx = carbide::thread::index_1d();
  auto tile = carbide::block::shared<Cell, 128>();
  tile[lid].v = 1.f;
  carbide::block::sync();
  const float seen = tile[(lid.get() + 1) % 128].v;
  if (float* o = out.get_mut(idx)) *o = seen;
}
}
