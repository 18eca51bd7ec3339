// carbide-launch-aliasing for slices of one buffer (issue 29): two slices whose constant ranges
// overlap, one of them an exclusive output, are reported at the launch, as is a slice beside its
// whole buffer; slices that do not overlap are accepted. (Slices at offsets the checker cannot
// compute are left to the launch's run-time overlap check.)
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void copy(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* e = out.get_mut(idx)) *e = in[idx.get()];
}

}  // namespace kernels

int main() {
  auto ctx = carbide::Context::create(0);
  auto stream = ctx.default_stream();
  auto buffer = carbide::DeviceBuffer<float>::zeroed(stream, 1024);
  auto module = kernels::load(ctx);
  auto prepared = module.prepare_copy(carbide::LaunchConfig1D(4, 128));

  auto low = buffer.slice(0, 512);
  auto shifted = buffer.slice(256, 512);
  module.copy(stream, prepared, low, shifted);
  // CHECK: launch-aliasing-slices.cpp:[[@LINE-1]]:10: error: 'shifted' (elements [256, 768) of 'buffer') is passed to exclusive parameter 'out' and 'low' (elements [0, 512) of 'buffer'), which overlaps it, to parameter 'in' of 'kernels::copy'
  auto inner = shifted.slice(128, 128);
  module.copy(stream, prepared, buffer, inner);
  // CHECK: launch-aliasing-slices.cpp:[[@LINE-1]]:10: error: 'inner' (elements [384, 512) of 'buffer') is passed to exclusive parameter 'out' and 'buffer', which overlaps it, to parameter 'in' of 'kernels::copy'

  // Good: halves that do not meet.
  auto high = buffer.slice(512, 512);
  module.copy(stream, prepared, low, high);
  return 0;
}
