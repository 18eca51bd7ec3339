// carbide-launch-config: a launch configuration whose constant fields break the kernel's
// contract, found at the host's prepare call before anything runs.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void scale(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 2.f * in[idx.get()];
}

constexpr unsigned kTile = 16;

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (kTile, kTile, 1), dynamic_shared = kTile * kTile * sizeof(float))
void tiles(carbide::disjoint_span2d<float> out) {
  auto idx = carbide::thread::index_2d();
  if (float* o = out.get_mut(idx)) *o = 1.f;
}

}  // namespace kernels

void launch(const kernels::Module& module, unsigned rows) {
  auto half = module.prepare_scale(carbide::LaunchConfig1D(rows, 128));
  // CHECK: launch-config.cpp:[[@LINE-1]]:36: error: this launch configuration breaks the contract of 'kernels::scale': block.x is 128 where the contract says 256, so 'prepare_scale' would throw carbide::LaunchContractError here at run time; write carbide::LaunchConfig1D(rows, 256) [carbide-launch-config]
  // CHECK: note: the contract of 'kernels::scale'
  const carbide::LaunchConfig2D flat({rows, 2, 1}, {256, 1, 1});
  auto wrong_domain = module.prepare_scale(flat);
  // CHECK: launch-config.cpp:[[@LINE-1]]:44: error: this launch configuration breaks the contract of 'kernels::scale': a LaunchConfig2D where the contract's domain is 1; grid.y is 2 where a domain-1 kernel needs 1, so 'prepare_scale' would throw carbide::LaunchContractError here at run time; write carbide::LaunchConfig1D(grid, 256) [carbide-launch-config]
  auto no_z = module.prepare_tiles(carbide::LaunchConfig2D({rows, rows, 1}, {kernels::kTile, kernels::kTile}, 1024));
  // CHECK: launch-config.cpp:[[@LINE-1]]:36: error: this launch configuration breaks the contract of 'kernels::tiles': block.z is 0 where the contract says 1, so 'prepare_tiles' would throw carbide::LaunchContractError here at run time; write carbide::LaunchConfig2D({rows, rows, 1}, {16, 16, 1}, 1024) [carbide-launch-config]
  auto no_shared = module.prepare_tiles(carbide::LaunchConfig2D({rows, rows, 1}, {16, 16, 1}));
  // CHECK: launch-config.cpp:[[@LINE-1]]:41: error: this launch configuration breaks the contract of 'kernels::tiles': dynamic shared memory is 0 bytes where the contract says 1024, so 'prepare_tiles' would throw carbide::LaunchContractError here at run time; write carbide::LaunchConfig2D({rows, rows, 1}, {16, 16, 1}, 1024) [carbide-launch-config]
  (void)half;
  (void)wrong_domain;
  (void)no_z;
  (void)no_shared;
}
