#include <scale_config.hpp>

#include <carbide/carbide.hpp>
#include <cstdio>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (scale_config::kBlock, 1, 1))
void scale(carbide::span<const float> in, carbide::disjoint_span<float> out, float a) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = a * in[idx.get()];
}

}  // namespace kernels

int main() {
  if (carbide::Context::device_count() == 0) {
    std::printf("no CUDA device: %s\n", carbide::Context::unavailable_reason().c_str());
    return 0;
  }
  auto ctx = carbide::Context::create(0);
  auto module = kernels::load(ctx);
  auto prepared = module.prepare_scale(carbide::LaunchConfig1D(1, scale_config::kBlock));
  (void)prepared;
  std::printf("PASSED\n");
}
