// A butterfly step through get_mut_pair: the device code keeps the call (its checks live in the
// header), and the PTX entry updates the pair in place with two plain loads and two plain stores,
// no atomics, and one trap for the checked build's power-of-two test.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck --check-prefix=CU %s < %t/butterfly-pairs.carbide.cu
// RUN: awk '/.entry carbide_kernels_walsh_step/,/^}/' %t/butterfly-pairs.ptx > %t/entry.ptx
// RUN: FileCheck --check-prefix=PTX --implicit-check-not=atom. %s < %t/entry.ptx
// CU: if (auto pair = data.get_mut_pair(idx, stride)) {
// PTX-COUNT-2: ld.global.f32
// PTX-COUNT-2: st.global.f32
// PTX: trap;
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void walsh_step(carbide::disjoint_span<float> data, unsigned stride) {
  auto idx = carbide::thread::index_1d();
  if (auto pair = data.get_mut_pair(idx, stride)) {
    const float a = pair.first(), b = pair.second();
    pair.first() = a + b;
    pair.second() = a - b;
  }
}

}  // namespace kernels
