// Each contract kernel's entry tells the compiler the contract's block: its dimensions and its
// thread indexes' bounds; a kernel whose launch bounds ask for several blocks per SM (a tuned
// register budget) is told only the bounds, and a grid-stride kernel nothing (its loop measured
// slower with the block's size constant).
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck %s < %t/entry-block-assumptions.carbide.cu
// RUN: %ptxas -arch=sm_90 %t/entry-block-assumptions.ptx -o /dev/null
#include <carbide/carbide.hpp>

namespace entries {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1))
void shaped(carbide::disjoint_span2d<float> out) {
  if (float* element = out.get_mut(carbide::thread::index_2d())) *element = 1.f;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(256, 2)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void budgeted(carbide::disjoint_span<float> out) {
  if (float* element = out.get_mut(carbide::thread::index_1d())) *element = 2.f;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void strided(carbide::span<const float> in, carbide::atomic_span<float> total) {
  for (auto&& i : carbide::thread::grid_stride(in)) total.fetch_add(0, in[i.get()]);
}

}  // namespace entries

// CHECK: carbide_entries_shaped(carbide::disjoint_span2d<float> out) {
// CHECK-NEXT: ::carbide::detail::assume_block_shape<32, 8, 1>();
// CHECK-NEXT: ::entries::shaped(out);
// CHECK: carbide_entries_budgeted(carbide::disjoint_span<float> out) {
// CHECK-NEXT: ::carbide::detail::assume_thread_indexes<256, 1, 1>();
// CHECK-NEXT: ::entries::budgeted(out);
// CHECK: carbide_entries_strided(carbide::span<const float> in, carbide::atomic_span<float> total) {
// CHECK-NEXT: ::entries::strided(in, total);
