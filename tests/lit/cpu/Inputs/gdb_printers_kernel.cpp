// A kernel whose witness, views, shared array and vec gdb prints (tests/lit/cpu/gdb-printers.test).
#include <carbide/carbide.hpp>

#include <cstdio>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (8, 1, 1))
void reverse(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 8>();
  carbide::vec<int, 3> trio = {{1, 2, 3}};
  tile[lid] = in[idx.get()];
  carbide::block::sync();
  const float mirrored = tile[7 - lid.get()] + float(trio[2]);  // BREAK HERE
  if (float* o = out.get_mut(idx)) *o = mirrored;
}

}  // namespace kernels

int main() {
  auto context = carbide::Context::create_default();
  auto stream = context.default_stream();
  std::vector<float> values(16);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = float(i);
  auto in = carbide::DeviceBuffer<float>::from_host(stream, values);
  auto out = carbide::DeviceBuffer<float>::zeroed(stream, 16);
  auto module = kernels::load(context);
  module.reverse(stream, module.prepare_reverse(carbide::LaunchConfig1D(2, 8)), in, out);
  std::printf("out[8] = %g\n", out.to_host_vec(stream)[8]);
}
