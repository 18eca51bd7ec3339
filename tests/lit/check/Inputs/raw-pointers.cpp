#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void scale(const float* in, float* out) {
  auto idx = carbide::thread::index_1d();
  (void)idx;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void scale_restrict(const float* __restrict__ in, float *__restrict__ out) {
  auto idx = carbide::thread::index_1d();
  (void)idx;
}

}  // namespace kernels
