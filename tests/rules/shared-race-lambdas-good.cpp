// Lambdas over the block's shared arrays, held in locals that are only called: each call is
// checked where it is made, the lambda's parameters standing for the call's arguments, as a
// helper's are. A load and a mirrored read on either side of a barrier; a lambda that passes its
// captured array on to a helper; a lambda over dynamic shared memory.
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void reverse_tiles(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 256>();
  auto load = [&](unsigned slot, float value) { tile[slot] = value; };
  const auto mirrored = [&tile](unsigned slot) { return tile[255 - slot]; };
  load(lid.get(), idx.get() < in.size() ? in[idx.get()] : 0.f);
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = mirrored(lid.get());
}

void add_to(carbide::shared_array<float, 256>& tile, unsigned slot, float value) { tile[slot] += value; }

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void through_a_helper(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 256>();
  tile[lid] = 1.f;
  auto bump = [&](unsigned slot) { add_to(tile, slot, 2.f); };
  bump(lid.get());
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tile[255 - lid.get()];
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1), dynamic_shared = 512)
void dynamic_rows(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto row = carbide::block::dynamic_shared<float>();
  auto put = [&](unsigned slot, float value) { row[slot] = value; };
  put(lid.get(), float(idx.get()));
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = row[127 - lid.get()];
}

}  // namespace kernels
