// vecadd.cpp — one file, host and device together.
#include <carbide/carbide.hpp>
#include <cstdio>
#include <vector>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(256)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void vecadd(carbide::span<const float> a, carbide::span<const float> b,
            carbide::disjoint_span<float> c) {
  auto idx = carbide::thread::index_1d();          // unforgeable, unique per thread
  if (float* c_elem = c.get_mut(idx)) {            // nullptr when idx is past c's end
    *c_elem = a[idx.get()] + b[idx.get()];
  }
}

}  // namespace kernels

int main(int, char** argv) try {
  auto ctx = carbide::Context::create_default();                     // GPU 0, else the CPU
  auto stream = ctx.default_stream();
  constexpr std::size_t N = 1024;
  std::vector<float> a_host(N), b_host(N);
  for (std::size_t i = 0; i < N; ++i) { a_host[i] = float(i); b_host[i] = float(2 * i); }
  auto a_dev = carbide::DeviceBuffer<float>::from_host(stream, a_host);
  auto b_dev = carbide::DeviceBuffer<float>::from_host(stream, b_host);
  auto c_dev = carbide::DeviceBuffer<float>::zeroed(stream, N);

  auto module = kernels::load(ctx);                                  // generated
  auto prepared = module.prepare_vecadd(
      carbide::LaunchConfig1D(carbide::div_ceil(N, 256), 256, 0));  // validates the contract
  module.vecadd(stream, prepared, a_dev, b_dev, c_dev);              // typed, checked launch

  auto c_host = c_dev.to_host_vec(stream);
  std::size_t errors = 0;
  for (std::size_t i = 0; i < N; ++i) errors += c_host[i] != a_host[i] + b_host[i];
  if (errors) { std::fprintf(stderr, "FAILED: %zu errors\n", errors); return 1; }
  std::printf("PASSED: all %zu elements correct\n", N);
  return 0;
} catch (const std::exception& error) {  // no GPU, a launch outside the contract, ...
  return carbide::report_error(argv[0], error);  // "vecadd: error: ..." and exit status 1
}
