// Warp-per-row kernels as ML code writes them (llm.c's layernorm_forward_kernel3 and a row
// softmax): warp w of the grid owns row w, its lanes stride the row by 32 (get_mut_warp_row), and
// lane 0 writes the row's scalars (get_mut_warp_leader). A warp past the last row leaves before
// its shuffles: its number is the same for all its lanes. Checked clean, translated (nvcc
// compiles the device side), and run on the CPU against values computed here.
// RUN: rm -rf %t && %carbide check %s
// RUN: %carbide_translate %s -o %t
// RUN: %cxx_user -I%t -include %t/warp-rows.carbide.hpp -c %s -o %t/app.o
// RUN: %cxx_user -I%t -c %t/warp-rows.carbide.cpp -o %t/stubs.o
// RUN: %cxx_user %t/app.o %t/stubs.o %runtime_lib -ldl -o %t/app
// RUN: env CARBIDE_DEVICE=cpu CARBIDE_CPU_CHECKS=1 %t/app 2>&1 | FileCheck %s
// CHECK: carbide: running kernels on the CPU
// CHECK-NEXT: layernorm: 7 rows of 100, 0 values wrong
// CHECK-NEXT: softmax: 7 rows of 100, 0 values wrong
// CHECK-NEXT: row 6 mean 15.5 rstd 0.17
#include <carbide/carbide.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

namespace kernels {

// Four warps a block; the grid has a warp past the last row.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void layernorm_forward(carbide::disjoint_span<float> out, carbide::disjoint_span<float> mean,
                       carbide::disjoint_span<float> rstd, carbide::span<const float> inp,
                       carbide::span<const float> weight, carbide::span<const float> bias, unsigned N, unsigned C) {
  auto warp = carbide::thread::warp_index_1d();
  const std::size_t idx = warp.get();
  if (idx >= N) return;
  const unsigned lane = carbide::thread::lane().get();
  const carbide::span<const float> x = inp.subspan(idx * C, C);
  float sum = 0.0f;
  for (unsigned i = lane; i < C; i += 32) sum += x[i];
  sum = carbide::warp::reduce_add(sum);
  const float m = sum / C;
  if (float* p = mean.get_mut_warp_leader(warp)) *p = m;
  sum = 0.0f;
  for (unsigned i = lane; i < C; i += 32) {
    const float diff = x[i] - m;
    sum += diff * diff;
  }
  sum = carbide::warp::reduce_add(sum);
  const float s = rsqrtf(sum / C + 1e-5f);
  if (float* p = rstd.get_mut_warp_leader(warp)) *p = s;
  auto o = out.get_mut_warp_row(warp, C);
  for (unsigned k = 0; k < o.count(); ++k) {
    const std::size_t c = o.index(k);
    o[k] = s * (x[c] - m) * weight[c] + bias[c];
  }
}

// The row's largest value through the generic fold, then its exponentials' sum.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (64, 1, 1))
void softmax_rows(carbide::disjoint_span<float> out, carbide::span<const float> inp, unsigned N, unsigned C) {
  auto warp = carbide::thread::warp_index_1d();
  if (warp.get() >= N) return;
  const unsigned lane = carbide::thread::lane().get();
  const carbide::span<const float> x = inp.subspan(warp.get() * C, C);
  float largest = -INFINITY;
  for (unsigned i = lane; i < C; i += 32) largest = fmaxf(largest, x[i]);
  largest = carbide::warp::reduce(largest, [](float a, float b) { return fmaxf(a, b); });
  float sum = 0.0f;
  for (unsigned i = lane; i < C; i += 32) sum += expf(x[i] - largest);
  sum = carbide::warp::reduce(sum, [](float a, float b) { return a + b; });
  auto o = out.get_mut_warp_row(warp, C);
  for (unsigned k = 0; k < o.count(); ++k) o[k] = expf(x[o.index(k)] - largest) / sum;
}

}  // namespace kernels

int main() {
  auto context = carbide::Context::create_default();
  auto stream = context.default_stream();
  constexpr unsigned N = 7, C = 100;
  std::vector<float> host(N * C), weight(C), bias(C);
  for (unsigned i = 0; i < host.size(); ++i) host[i] = float(i % 20) + float(i / C);
  for (unsigned c = 0; c < C; ++c) {
    weight[c] = 1.0f + float(c % 3);
    bias[c] = float(c % 5) - 2.0f;
  }
  auto inp = carbide::DeviceBuffer<float>::from_host(stream, host);
  auto w = carbide::DeviceBuffer<float>::from_host(stream, weight);
  auto b = carbide::DeviceBuffer<float>::from_host(stream, bias);
  auto out = carbide::DeviceBuffer<float>::zeroed(stream, N * C);
  auto mean = carbide::DeviceBuffer<float>::zeroed(stream, N);
  auto rstd = carbide::DeviceBuffer<float>::zeroed(stream, N);
  auto probabilities = carbide::DeviceBuffer<float>::zeroed(stream, N * C);
  auto module = kernels::load(context);
  // Two blocks of four warps: eight warps for seven rows.
  module.layernorm_forward(stream, module.prepare_layernorm_forward(carbide::LaunchConfig1D(2, 128)), out, mean, rstd,
                           inp, w, b, N, C);
  module.softmax_rows(stream, module.prepare_softmax_rows(carbide::LaunchConfig1D(4, 64)), probabilities, inp, N, C);
  const std::vector<float> normed = out.to_host_vec(stream), means = mean.to_host_vec(stream),
                           rstds = rstd.to_host_vec(stream), soft = probabilities.to_host_vec(stream);
  unsigned layernorm_wrong = 0, softmax_wrong = 0;
  for (unsigned row = 0; row < N; ++row) {
    const float* x = &host[row * C];
    double m = 0, v = 0, largest = -INFINITY, sum = 0;
    for (unsigned c = 0; c < C; ++c) m += x[c];
    m /= C;
    for (unsigned c = 0; c < C; ++c) v += (x[c] - m) * (x[c] - m);
    const double s = 1 / std::sqrt(v / C + 1e-5);
    for (unsigned c = 0; c < C; ++c) largest = std::fmax(largest, x[c]);
    for (unsigned c = 0; c < C; ++c) sum += std::exp(x[c] - largest);
    for (unsigned c = 0; c < C; ++c) {
      layernorm_wrong += std::fabs(s * (x[c] - m) * weight[c] + bias[c] - normed[row * C + c]) > 1e-4;
      softmax_wrong += std::fabs(std::exp(x[c] - largest) / sum - soft[row * C + c]) > 1e-6;
    }
    layernorm_wrong += std::fabs(m - means[row]) > 1e-4;
    layernorm_wrong += std::fabs(s - rstds[row]) > 1e-4;
  }
  std::printf("layernorm: %u rows of %u, %u values wrong\n", N, C, layernorm_wrong);
  std::printf("softmax: %u rows of %u, %u values wrong\n", N, C, softmax_wrong);
  std::printf("row 6 mean %.1f rstd %.2f\n", means[6], rstds[6]);
}
