// CUDA's vector types as they are written in CUDA, with no include: float4 and uint4 views are
// read in one 16-byte load each (ld.global.nc.v4) and written in one 16-byte store; a float2
// goes through shared memory; make_float4 builds values. The host passes DeviceBuffer<float4>.
// Checked clean, translated, then run on the CPU with its race checks.
// RUN: rm -rf %t && %carbide check %s
// RUN: %carbide_translate %s -o %t
// RUN: FileCheck --check-prefix=PTX %s < %t/vector-types.ptx
// PTX: ld.global.nc.v4.f32
// PTX: ld.global.nc.v4.u32
// PTX: st.global.v4.f32
// RUN: %cxx_user -I%t -include %t/vector-types.carbide.hpp -c %s -o %t/app.o
// RUN: %cxx_user -I%t -c %t/vector-types.carbide.cpp -o %t/stubs.o
// RUN: %cxx_user %t/app.o %t/stubs.o %runtime_lib -ldl -o %t/app
// RUN: env CARBIDE_DEVICE=cpu CARBIDE_CPU_CHECKS=1 %t/app 2>&1 | FileCheck %s
// CHECK: carbide: running kernels on the CPU
// CHECK-NEXT: 1000 points scaled, 0 wrong; 1000 neighbour sums, 0 wrong
#include <carbide/carbide.hpp>

#include <cstdio>
#include <vector>

namespace vectors {

constexpr unsigned kBlock = 128;

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void scale_and_pair(carbide::span<const float4> points, carbide::span<const uint4> weights,
                    carbide::disjoint_span<float4> scaled, carbide::disjoint_span<float2> sums) {
  auto idx = carbide::thread::index_1d();
  auto halves = carbide::block::shared<float2, kBlock>();
  const unsigned t = carbide::thread::thread_idx().x;
  const float4 p = idx.get() < points.size() ? points[idx.get()] : make_float4(0.f, 0.f, 0.f, 0.f);
  halves[t] = make_float2(p.x + p.y, p.z + p.w);
  carbide::block::sync();
  if (float4* s = scaled.get_mut(idx)) {
    const uint4 w = weights[idx.get()];
    *s = make_float4(p.x * float(w.x), p.y * float(w.y), p.z * float(w.z), p.w * float(w.w));
  }
  if (float2* sum = sums.get_mut(idx)) *sum = halves[(t + 1) % kBlock];
}

}  // namespace vectors

int main() {
  const std::size_t n = 1000;
  std::vector<float4> points(n);
  std::vector<uint4> weights(n);
  for (std::size_t i = 0; i < n; ++i) {
    points[i] = make_float4(float(i), 0.5f * float(i), 1.f, -2.f);
    weights[i] = make_uint4(unsigned(i % 3), 1u, unsigned(i % 5), 2u);
  }
  auto ctx = carbide::Context::create_default();
  auto stream = ctx.default_stream();
  auto points_dev = carbide::DeviceBuffer<float4>::from_host(stream, points);
  auto weights_dev = carbide::DeviceBuffer<uint4>::from_host(stream, weights);
  auto scaled = carbide::DeviceBuffer<float4>::zeroed(stream, n);
  auto sums = carbide::DeviceBuffer<float2>::zeroed(stream, n);
  auto module = vectors::load(ctx);
  const unsigned blocks = unsigned(carbide::div_ceil(n, std::size_t(vectors::kBlock)));
  module.scale_and_pair(stream, module.prepare_scale_and_pair(carbide::LaunchConfig1D(blocks, vectors::kBlock)),
                        points_dev, weights_dev, scaled, sums);
  const auto got_scaled = scaled.to_host_vec(stream);
  const auto got_sums = sums.to_host_vec(stream);
  std::size_t scaled_wrong = 0, sums_wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float4 p = points[i], s = got_scaled[i];
    const uint4 w = weights[i];
    scaled_wrong += s.x != p.x * float(w.x) || s.y != p.y * float(w.y) || s.z != p.z * float(w.z) ||
                    s.w != p.w * float(w.w);
    const std::size_t next = i / vectors::kBlock * vectors::kBlock + (i + 1) % vectors::kBlock;
    const float4 q = next < n ? points[next] : make_float4(0.f, 0.f, 0.f, 0.f);
    sums_wrong += got_sums[i].x != q.x + q.y || got_sums[i].y != q.z + q.w;
  }
  std::printf("%zu points scaled, %zu wrong; %zu neighbour sums, %zu wrong\n", n, scaled_wrong, n, sums_wrong);
  return scaled_wrong + sums_wrong == 0 ? 0 : 1;
}
