// store_whole: a chunk's store is one vector instruction with no partial-chunk path, and each
// launch checks, before the driver sees it, that the view it stores whole chunks of has a length
// that is a multiple of the chunk: directly, through a helper, in the strided form, and without
// a contract. store() keeps its element-by-element path for a partial last chunk. The user's
// file and the stubs compile together.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck --check-prefix=STUB %s < %t/whole-chunk-stores.carbide.cpp
// RUN: %cxx_user -I%t -include %t/whole-chunk-stores.carbide.hpp -fsyntax-only %s
// RUN: %cxx_user -I%t -fsyntax-only %t/whole-chunk-stores.carbide.cpp
// RUN: awk '/.entry carbide_kernels_scale_whole\(/,/^}/' %t/whole-chunk-stores.ptx > %t/whole.ptx
// RUN: FileCheck --check-prefix=WHOLE --implicit-check-not=st.global %s < %t/whole.ptx
// RUN: awk '/.entry carbide_kernels_scale_partial\(/,/^}/' %t/whole-chunk-stores.ptx > %t/partial.ptx
// RUN: FileCheck --check-prefix=PARTIAL %s < %t/partial.ptx
// RUN: %ptxas -arch=sm_90 %t/whole-chunk-stores.ptx -o /dev/null
// STUB-LABEL: void Module::scale_whole(
// STUB: carbide::validate_whole_chunks("kernels::scale_whole", "out", out.size(), 4);
// STUB-NEXT: carbide::detail::check_same_device(
// STUB-LABEL: void Module::scale_partial(
// STUB-NOT: validate_whole_chunks
// STUB-LABEL: void Module::through_helper(
// STUB: carbide::validate_whole_chunks("kernels::through_helper", "out", out.size(), 8);
// STUB-NOT: validate_whole_chunks
// STUB-LABEL: void Module::strided(
// STUB: carbide::validate_whole_chunks("kernels::strided", "out", out.size(), 4);
// STUB-LABEL: void Module::unsafe_launch_uncontracted(
// STUB: carbide::validate_whole_chunks("kernels::uncontracted", "out", out.size(), 2);
// WHOLE: ld.global.nc.v4
// WHOLE: st.global.v4.f32
// PARTIAL: st.global.v4.f32
// PARTIAL: st.global.f32
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void scale_whole(carbide::span<const float> in, carbide::disjoint_span<float> out, float a) {
  auto idx = carbide::thread::index_1d();
  if (auto mine = out.get_mut_chunk<4>(idx)) {
    carbide::vec<float, 4> v = in.whole_chunk<4>(idx.get());
    for (int j = 0; j < 4; ++j) v[j] *= a;
    mine.store_whole(v);
  }
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void scale_partial(carbide::span<const float> in, carbide::disjoint_span<float> out, float a) {
  auto idx = carbide::thread::index_1d();
  if (auto mine = out.get_mut_chunk<4>(idx)) {
    carbide::vec<float, 4> v = in.chunk<4>(idx.get());
    for (int j = 0; j < 4; ++j) v[j] *= a;
    mine.store(v);
  }
}

void fill_eight(carbide::disjoint_span<float> target, const carbide::thread::index_1d_witness& at) {
  if (auto piece = target.get_mut_chunk<8>(at)) piece.store_whole(carbide::vec<float, 8>{});
}

// `keep` is stored with store(): no check for it.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void through_helper(carbide::disjoint_span<float> out, carbide::disjoint_span<float> keep) {
  auto idx = carbide::thread::index_1d();
  fill_eight(out, idx);
  if (auto mine = keep.get_mut_chunk<8>(idx)) mine.store(carbide::vec<float, 8>{});
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void strided(carbide::disjoint_span<float> out) {
  if (auto mine = out.get_mut_strided_chunks<4, 2>(carbide::thread::index_1d()))
    for (int j = 0; j < 2; ++j) mine.store_whole(j, carbide::vec<float, 4>{1.f, 2.f, 3.f, 4.f});
}

CARBIDE_KERNEL
void uncontracted(carbide::disjoint_span<float> out) {
  if (auto mine = out.get_mut_chunk<2>(carbide::thread::index_1d())) mine.store_whole(carbide::vec<float, 2>{});
}

}  // namespace kernels
