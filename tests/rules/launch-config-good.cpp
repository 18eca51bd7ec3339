// Launch configurations that keep the contract, or whose fields are known only at run time
// (left to prepare's check): carbide-launch-config reports none of them.
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void scale(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 2.f * in[idx.get()];
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void tiles(carbide::disjoint_span2d<float> out) {
  auto idx = carbide::thread::index_2d();
  if (float* o = out.get_mut(idx)) *o = 1.f;
}

template <unsigned Block>
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (Block, 1, 1))
void fill(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = float(Block);
}

}  // namespace kernels

void launch(const kernels::Module& module, unsigned rows, unsigned block) {
  constexpr unsigned kBlock = 256;
  auto exact = module.prepare_scale(carbide::LaunchConfig1D(rows, kBlock));
  auto chosen = module.prepare_scale(carbide::LaunchConfig1D(rows, block));
  carbide::LaunchConfig1D changed(rows, 128);
  changed.block[0] = 256;  // not const: its fields may change before the call
  auto later = module.prepare_scale(changed);
  const carbide::LaunchConfig2D square({rows, rows, 1}, {16, 16, 1});
  auto grid = module.prepare_tiles(square);
  auto instance = module.prepare_fill<128>(carbide::LaunchConfig1D(rows, 128));
  (void)exact;
  (void)chosen;
  (void)later;
  (void)grid;
  (void)instance;
}
