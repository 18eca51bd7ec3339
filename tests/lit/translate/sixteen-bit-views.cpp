// ct::bf16 and ct::f16 are elements of SIMT views too: the device code sees the types (and the
// user's namespace alias for them), the API takes DeviceBuffers of them, and the host program
// links against the stubs.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck --check-prefix=CU %s < %t/sixteen-bit-views.carbide.cu
// RUN: FileCheck --check-prefix=API %s < %t/sixteen-bit-views.carbide.hpp
// RUN: %cxx_user -I%t -include %t/sixteen-bit-views.carbide.hpp -c %s -o %t/main.o
// RUN: %cxx_user -I%t -c %t/sixteen-bit-views.carbide.cpp -o %t/stubs.o
// RUN: %cxx_user %t/main.o %t/stubs.o %runtime_lib -ldl -o %t/main
#include <carbide/carbide.hpp>
#include <carbide/tile/types.hpp>

namespace ct = carbide::tile;
// CU: namespace ct = carbide::tile;

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void widen(carbide::span<const ct::bf16> in, carbide::span<const ct::f16> scale, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = float(in[idx.get()]) * float(scale[0]);
}
// CU: carbide_kernels_widen(carbide::span<const carbide::tile::bf16> in, carbide::span<const carbide::tile::f16> scale, carbide::disjoint_span<float> out)
// API: const carbide::DeviceBuffer<carbide::tile::bf16>& in,
// API-NEXT: const carbide::DeviceBuffer<carbide::tile::f16>& scale,

}  // namespace kernels

int main() {
  auto context = carbide::Context::create(0);
  auto stream = context.default_stream();
  const auto module = kernels::load(context);
  const auto in = carbide::DeviceBuffer<ct::bf16>::from_host(stream, std::vector<ct::bf16>(1024, ct::bf16(1.5f)));
  const auto scale = carbide::DeviceBuffer<ct::f16>::from_host(stream, std::vector<ct::f16>(1, ct::f16(2.f)));
  auto out = carbide::DeviceBuffer<float>::zeroed(stream, 1024);
  module.widen(stream, module.prepare_widen(carbide::LaunchConfig1D(4, 256)), in, scale, out);
  return 0;
}
