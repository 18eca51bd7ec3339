// A kernel to step through in gdb on the CPU context (tests/lit/cpu/gdb.test).
#include <carbide/carbide.hpp>

#include <cstdio>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 32)
void scale(carbide::span<const float> in, float factor, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const float scaled = in[idx.get()] * factor;  // BREAK HERE
  if (float* o = out.get_mut(idx)) *o = scaled;
}

}  // namespace kernels

int main() {
  auto context = carbide::Context::create_default();
  auto stream = context.default_stream();
  std::vector<float> values(64);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = float(i);
  auto in = carbide::DeviceBuffer<float>::from_host(stream, values);
  auto out = carbide::DeviceBuffer<float>::zeroed(stream, 64);
  auto module = kernels::load(context);
  module.scale(stream, module.prepare_scale(carbide::LaunchConfig1D(2, 32)), in, 3.f, out);
  std::printf("out[63] = %g\n", out.to_host_vec(stream)[63]);
}
