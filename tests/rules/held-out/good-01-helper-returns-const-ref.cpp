// CORRECT (precision): near 01: a helper returns const float& and only reads after the barrier
// RUN: %corpus_check %s
#include <carbide/carbide.hpp>
namespace kernels {
const float& peek(const carbide::shared_array<float, 128>& t, unsigned i) { return t[i]; }
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto idx = carbide::thread::index_1d();
  auto tile = carbide::block::shared<float, 128>();
  tile[lid] = float(lid.get());
  carbide::block::sync();
  const float seen = peek(tile, (lid.get() + 1) % 128);
  if (float* o = out.get_mut(idx)) *o = seen;
}
}
