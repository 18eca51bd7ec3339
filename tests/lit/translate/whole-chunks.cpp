// span::whole_chunk<K>: a 16-byte chunk is one vector load whose address is selected (address 0
// past the end), with no branch to a trap; a chunk narrower than 8 bytes checks with a branch.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck %s < %t/whole-chunks.ptx
// RUN: %ptxas -arch=sm_90 %t/whole-chunks.ptx -o /dev/null
// CHECK-LABEL: .entry carbide_chunks_four(
// CHECK: selp.b64
// CHECK: ld.global.nc.v4
// CHECK-NOT: trap
// CHECK-LABEL: .entry carbide_chunks_one(
// CHECK: trap
#include <carbide/carbide.hpp>

namespace chunks {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void four(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (auto mine = out.get_mut_chunk<4>(idx)) mine.store(in.whole_chunk<4>(idx.get()));
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void one(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* element = out.get_mut(idx)) *element = in.whole_chunk<1>(idx.get())[0];
}

}  // namespace chunks
