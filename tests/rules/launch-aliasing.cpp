// carbide-launch-aliasing: one buffer as an exclusive output and as another argument of the same
// launch. Checked on host code before any generated file exists.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
#include <vector>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void axpy(carbide::span<const float> x, carbide::span<const float> y,
          carbide::disjoint_span<float> out, float a) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = a * x[idx.get()] + y[idx.get()];
}

// A histogram whose counts buffer is also read as input.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void histogram(carbide::span<const unsigned> values, carbide::atomic_span<unsigned> counts) {
  auto idx = carbide::thread::index_1d();
  if (idx.get() < values.size()) counts.fetch_add(values[idx.get()] % counts.size(), 1u);
}

}  // namespace kernels

struct Buffers {
  carbide::DeviceBuffer<float> x, y;
};

int main() {
  auto ctx = carbide::Context::create(0);
  auto stream = ctx.default_stream();
  auto x = carbide::DeviceBuffer<float>::zeroed(stream, 1024);
  auto y = carbide::DeviceBuffer<float>::zeroed(stream, 1024);
  auto module = kernels::load(ctx);
  auto prepared = module.prepare_axpy(carbide::LaunchConfig1D(4, 256));

  // In-place update: y = a*x + y, written with y as the output.
  module.axpy(stream, prepared, x, y, y, 2.f);
  // CHECK: launch-aliasing.cpp:[[@LINE-1]]:10: error: 'y' is passed to exclusive parameter 'out' and to parameter 'y' of 'kernels::axpy'; threads writing their elements of 'out' would race with threads using 'y'. Pass distinct buffers, or, to update in place, drop 'y' and read each thread's element through 'out' itself (`*o = f(*o)`) [carbide-launch-aliasing]
  // CHECK: launch-aliasing.cpp:36:8: note: 'y' declared here
  // CHECK: launch-aliasing.cpp:13:41: note: 'out' is an exclusive output of 'kernels::axpy'

  // The same, through a reference and a struct member.
  Buffers bufs{carbide::DeviceBuffer<float>::zeroed(stream, 1024),
               carbide::DeviceBuffer<float>::zeroed(stream, 1024)};
  auto& target = bufs.x;
  module.axpy(stream, prepared, bufs.x, bufs.y, target, 2.f);
  // CHECK: launch-aliasing.cpp:[[@LINE-1]]:10: error: 'bufs.x' is passed to exclusive parameter 'out' and to parameter 'x'

  // The same buffer as atomic_span and span<const T>.
  auto bins = carbide::DeviceBuffer<unsigned>::zeroed(stream, 256);
  auto hist = module.prepare_histogram(carbide::LaunchConfig1D(1, 256));
  module.histogram(stream, hist, bins, bins);
  // CHECK: launch-aliasing.cpp:[[@LINE-1]]:10: error: 'bins' is passed to exclusive parameter 'counts' and to parameter 'values' of 'kernels::histogram'

  // Good: one buffer read twice, and a distinct output.
  auto out = carbide::DeviceBuffer<float>::uninitialized(stream, 1024);
  module.axpy(stream, prepared, x, x, out, 2.f);
  return 0;
}
