// thread::index_1d<carbide::block_order::reversed>(): block b of G takes the indexes of block
// G − 1 − b, a permutation of the blocks, so every element still has one owner and get_mut takes
// the witness as it takes index_1d()'s. Checked clean; under a contract of 32-bit indexes the
// entry keeps the reversed form (the 32-bit witness numbers blocks in their natural order); run on
// the CPU, each element holds the number of the block that wrote it.
// RUN: rm -rf %t && %carbide check %s
// RUN: %carbide_translate %s -o %t
// RUN: FileCheck --check-prefix=DEVICE %s < %t/block-order.carbide.cu
// DEVICE: carbide::thread::index_1d<carbide::block_order::reversed>()
// DEVICE: carbide::detail::index_1d_32()
// RUN: %cxx_user -I%t -include %t/block-order.carbide.hpp -c %s -o %t/app.o
// RUN: %cxx_user -I%t -c %t/block-order.carbide.cpp -o %t/stubs.o
// RUN: %cxx_user %t/app.o %t/stubs.o %runtime_lib -ldl -o %t/app
// RUN: env CARBIDE_DEVICE=cpu CARBIDE_CPU_CHECKS=1 %t/app 2>&1 | FileCheck %s
// CHECK: carbide: running kernels on the CPU
// CHECK-NEXT: reversed: 3 3 2 2 1 1 0 0, natural: 0 0 1 1 2 2 3 3
#include <carbide/carbide.hpp>

#include <cstdio>
#include <vector>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (64, 1, 1), index_bits = 32)
void writer_block_reversed(carbide::disjoint_span<int> out) {
  auto idx = carbide::thread::index_1d<carbide::block_order::reversed>();
  if (int* e = out.get_mut(idx)) *e = int(carbide::thread::block_idx().x);
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (64, 1, 1), index_bits = 32)
void writer_block(carbide::disjoint_span<int> out) {
  auto idx = carbide::thread::index_1d();
  if (int* e = out.get_mut(idx)) *e = int(carbide::thread::block_idx().x);
}

}  // namespace kernels

int main() {
  auto context = carbide::Context::create_default();
  auto stream = context.default_stream();
  auto reversed = carbide::DeviceBuffer<int>::zeroed(stream, 4 * 64);
  auto natural = carbide::DeviceBuffer<int>::zeroed(stream, 4 * 64);
  auto module = kernels::load(context);
  module.writer_block_reversed(stream, module.prepare_writer_block_reversed(carbide::LaunchConfig1D(4, 64)), reversed);
  module.writer_block(stream, module.prepare_writer_block(carbide::LaunchConfig1D(4, 64)), natural);
  const std::vector<int> r = reversed.to_host_vec(stream), n = natural.to_host_vec(stream);
  std::printf("reversed:");
  for (unsigned i = 0; i < r.size(); i += 32) std::printf(" %d", r[i]);
  std::printf(", natural:");
  for (unsigned i = 0; i < n.size(); i += 32) std::printf(" %d", n[i]);
  std::printf("\n");
}
