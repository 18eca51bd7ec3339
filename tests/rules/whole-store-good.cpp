// store_whole where the launch can check the view: a chunk claimed in the function that stores
// it, from a kernel parameter, directly or in a helper the view is passed to by name, in both
// chunk forms; store() anywhere.
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

void fill(carbide::disjoint_span<float> target, const carbide::thread::index_1d_witness& at) {
  if (auto piece = target.get_mut_strided_chunks<4, 2>(at))
    for (int j = 0; j < 2; ++j) piece.store_whole(j, carbide::vec<float, 4>{});
}

void put(const carbide::chunk_mut<float, 4>& chunk, const carbide::vec<float, 4>& values) { chunk.store(values); }

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void scale(carbide::span<const float> in, carbide::disjoint_span<float> out, carbide::disjoint_span<float> strided,
           carbide::disjoint_span<float> partial, float a) {
  auto idx = carbide::thread::index_1d();
  if (auto mine = out.get_mut_chunk<4>(idx)) {
    carbide::vec<float, 4> v = in.whole_chunk<4>(idx.get());
    for (int j = 0; j < 4; ++j) v[j] *= a;
    mine.store_whole(v);
  }
  fill(strided, idx);
  if (auto mine = partial.get_mut_chunk<4>(idx)) put(mine, in.chunk<4>(idx.get()));
}

}  // namespace kernels
