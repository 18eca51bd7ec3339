// CARBIDE_CONSTANT tables as CUDA's __constant__ memory: a 17-tap filter and a gain, read by a
// kernel, set by the host through the module (set_taps, set_gain) in stream order, and set again
// between two launches. In the PTX the tables are .const globals under the kernel namespace's
// mangled names, and the proven tap reads are ld.const. On the CPU, the second launch sees the
// second taps; a count that is not the table's size is refused.
// RUN: rm -rf %t && %carbide check %s
// RUN: %carbide_translate %s -o %t
// RUN: FileCheck --check-prefix=PTX %s < %t/constant-tables.ptx
// PTX-DAG: .const .align 4 .b8 _ZN6filter4tapsE[68]
// PTX-DAG: .const .align 4 .f32 _ZN6filter4gainE
// PTX: ld.const.f32
// RUN: FileCheck --check-prefix=API %s < %t/constant-tables.carbide.hpp
// API: // Sets the constant table filter::taps (float[17]) for the kernels launched on `stream`
// API: void set_taps(const carbide::Stream& stream, const float (&values)[17]) const;
// API: void set_taps(const carbide::Stream& stream, const float* values, std::size_t count) const;
// API: void set_gain(const carbide::Stream& stream, const float& value) const;
// RUN: %cxx_user -I%t -include %t/constant-tables.carbide.hpp -c %s -o %t/app.o
// RUN: %cxx_user -I%t -c %t/constant-tables.carbide.cpp -o %t/stubs.o
// RUN: %cxx_user %t/app.o %t/stubs.o %runtime_lib -ldl -o %t/app
// RUN: env CARBIDE_DEVICE=cpu CARBIDE_CPU_CHECKS=1 %t/app 2>&1 | FileCheck %s
// CHECK: carbide: running kernels on the CPU
// CHECK-NEXT: box filter: 4096 outputs, 0 wrong
// CHECK-NEXT: ramp filter: 4096 outputs, 0 wrong
// CHECK-NEXT: refused: setting the constant table filter::taps: 16 values given for its 17 elements
#include <carbide/carbide.hpp>

#include <cstdio>
#include <vector>

namespace filter {

constexpr int kRadius = 8;
constexpr int kTaps = 2 * kRadius + 1;
constexpr unsigned kBlock = 128;

CARBIDE_CONSTANT float taps[kTaps];
CARBIDE_CONSTANT float gain;

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void convolve(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const long i = long(idx.get());
  float sum = 0.f;
  for (int j = 0; j < kTaps; ++j) {
    const long at = i + j - kRadius;
    if (at >= 0 && at < long(in.size())) sum += taps[j] * in[std::size_t(at)];
  }
  if (float* o = out.get_mut(idx)) *o = gain * sum;
}

}  // namespace filter

// Counts the outputs that differ from the filter run on the host.
std::size_t wrong(const std::vector<float>& in, const std::vector<float>& out, const float (&taps)[filter::kTaps],
                  float gain) {
  std::size_t count = 0;
  for (long i = 0; i < long(in.size()); ++i) {
    float sum = 0.f;
    for (int j = 0; j < filter::kTaps; ++j) {
      const long at = i + j - filter::kRadius;
      if (at >= 0 && at < long(in.size())) sum += taps[j] * in[std::size_t(at)];
    }
    count += out[std::size_t(i)] != gain * sum;
  }
  return count;
}

int main() {
  const std::size_t n = 4096;
  std::vector<float> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = float(i % 13) - 6.f;
  auto ctx = carbide::Context::create_default();
  auto stream = ctx.default_stream();
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream, in);
  auto out = carbide::DeviceBuffer<float>::zeroed(stream, n);
  auto module = filter::load(ctx);
  const auto prepared = module.prepare_convolve(
      carbide::LaunchConfig1D(unsigned(carbide::div_ceil(n, std::size_t(filter::kBlock))), filter::kBlock));

  float box[filter::kTaps], ramp[filter::kTaps];
  for (int j = 0; j < filter::kTaps; ++j) {
    box[j] = 1.f / filter::kTaps;
    ramp[j] = float(j);
  }
  module.set_taps(stream, box);
  module.set_gain(stream, 2.f);
  module.convolve(stream, prepared, in_dev, out);
  std::printf("box filter: %zu outputs, %zu wrong\n", n, wrong(in, out.to_host_vec(stream), box, 2.f));

  const std::vector<float> ramp_values(ramp, ramp + filter::kTaps);
  module.set_taps(stream, ramp_values.data(), ramp_values.size());
  module.convolve(stream, prepared, in_dev, out);
  std::printf("ramp filter: %zu outputs, %zu wrong\n", n, wrong(in, out.to_host_vec(stream), ramp, 2.f));

  try {
    module.set_taps(stream, ramp_values.data(), 16);
  } catch (const carbide::Error& error) {
    std::printf("refused: %s\n", error.what());
  }
  return 0;
}
