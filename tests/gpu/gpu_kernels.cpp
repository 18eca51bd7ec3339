// Kernels the GPU tests launch through their generated module.
#include <carbide/carbide.hpp>

namespace gpu_tests {

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(256)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void vecadd(carbide::span<const float> a, carbide::span<const float> b,
            carbide::disjoint_span<float> c) {
  auto idx = carbide::thread::index_1d();
  if (float* c_elem = c.get_mut(idx)) *c_elem = a[idx.get()] + b[idx.get()];
}

// Deliberately without a contract: the tests reach it through unsafe_launch_fill.
CARBIDE_KERNEL
void fill(carbide::disjoint_span<float> out, float value) {  // NOLINT(carbide-missing-contract)
  auto idx = carbide::thread::index_1d();
  if (float* elem = out.get_mut(idx)) *elem = value;
}

}  // namespace gpu_tests
