// CORRECT (precision): near 14: a generic lambda writes the slot the caller names by the local index
// RUN: %corpus_check %s
#include <carbide/carbide.hpp>
namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void k(carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  auto idx = carbide::thread::index_1d();
  auto tile = carbide::block::shared<float, 128>();
  auto put = [](auto& t, unsigned i) { t[i] = 1.f; };
  put(tile, lid.get());
  carbide::block::sync();
  const float seen = tile[(lid.get() + 1) % 128];
  if (float* o = out.get_mut(idx)) *o = seen;
}
}
