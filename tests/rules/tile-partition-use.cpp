// carbide-tile-partition-use: a Tensor moved into a partition is empty until unpartition gives it
// back, and a Partition is empty once unpartitioned; a use in between, on any path, is reported
// at the use with a note at the move. Reassigning, asking empty(), and loops that give the
// tensor back each time are fine.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

namespace ct = carbide::tile;

namespace kernels {
CARBIDE_TILE_KERNEL
void scale(ct::out<float, ct::shape<1024>> y, ct::in<float, 1> x, float factor) {
  y.store(ct::load_like(x, y) * factor);
}
}  // namespace kernels

void read_while_partitioned(const kernels::Module& module, const carbide::Stream& stream) {
  auto x = carbide::Tensor<float>::zeroed(stream, {4096});
  auto y = carbide::Tensor<float>::zeroed(stream, {4096});
  auto part = std::move(y).partition(ct::shape<1024>{});
  module.scale(stream, part, x, 2.0f);
  auto host = y.to_host_vec(stream);
  // CHECK: tile-partition-use.cpp:[[@LINE-1]]:15: error: 'y' is used after it was moved into a partition, so it is empty here; get the tensor back first with 'y = std::move(part).unpartition();' [carbide-tile-partition-use]
  // CHECK: tile-partition-use.cpp:[[@LINE-4]]:28: note: 'y' was moved from here
}

void given_back_on_one_path(const kernels::Module& module, const carbide::Stream& stream, bool early) {
  auto x = carbide::Tensor<float>::zeroed(stream, {4096});
  auto y = carbide::Tensor<float>::zeroed(stream, {4096});
  auto part = std::move(y).partition(ct::shape<1024>{});
  if (early) y = std::move(part).unpartition();
  module.scale(stream, part, x, 2.0f);
  // CHECK: tile-partition-use.cpp:[[@LINE-1]]:24: error: 'part' is used after it was moved into a tensor by unpartition(), so it is empty here; partition the tensor again with 'part = std::move(y).partition(shape);' [carbide-tile-partition-use]
  // CHECK: tile-partition-use.cpp:[[@LINE-3]]:34: note: 'part' was moved from here
}

// Good: each use of y comes after unpartition, in a loop as well; empty() is always allowed.
void round_trips(const kernels::Module& module, const carbide::Stream& stream) {
  auto x = carbide::Tensor<float>::zeroed(stream, {4096});
  auto y = carbide::Tensor<float>::zeroed(stream, {4096});
  for (int step = 0; step < 3; ++step) {
    auto part = std::move(y).partition(ct::shape<1024>{});
    module.scale(stream, part, x, 0.5f);
    const bool moved = y.empty();
    y = std::move(part).unpartition();
    if (moved) x = carbide::Tensor<float>::zeroed(stream, {y.extents()[0]});
  }
  auto host = y.to_host_vec(stream);
}

int main() { return 0; }
