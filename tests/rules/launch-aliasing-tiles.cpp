// carbide-launch-aliasing on tile launches: one partition given to two ct::out parameters would
// have two tile blocks write each tile. A tensor cannot be both a partition and an input (the
// partition owns it: carbide-tile-partition-use), and the launch checks the ranges at run time.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

namespace ct = carbide::tile;

namespace kernels {
CARBIDE_TILE_KERNEL
void split(ct::out<float, ct::shape<1, 256>> lo, ct::out<float, ct::shape<1, 256>> hi, ct::in<float, 2> x) {
  auto t = ct::load_like(x, lo);
  lo.store(ct::min(t, ct::full<float, ct::shape<1, 256>>(0.0f)));
  hi.store(ct::max(t, ct::full<float, ct::shape<1, 256>>(0.0f)));
}
}  // namespace kernels

int main() {
  auto context = carbide::Context::create(0);
  auto stream = context.default_stream();
  const auto module = kernels::load(context);
  const auto x = carbide::Tensor<float>::zeroed(stream, {64, 256});
  auto part = carbide::Tensor<float>::zeroed(stream, {64, 256}).partition(ct::shape<1, 256>{});
  module.split(stream, part, part, x);
  // CHECK: launch-aliasing-tiles.cpp:[[@LINE-1]]:10: error: 'part' is passed to exclusive parameter 'lo' and to parameter 'hi' of 'kernels::split'; tile blocks writing their tiles of 'lo' would race with tile blocks using 'hi'. Pass distinct partitions [carbide-launch-aliasing]
  // CHECK: launch-aliasing-tiles.cpp:[[@LINE-3]]:8: note: 'part' declared here
  // CHECK: launch-aliasing-tiles.cpp:13:46: note: 'lo' is an exclusive output of 'kernels::split'

  // Good: two partitions of two tensors.
  auto other = carbide::Tensor<float>::zeroed(stream, {64, 256}).partition(ct::shape<1, 256>{});
  module.split(stream, part, other, x);
  return 0;
}
