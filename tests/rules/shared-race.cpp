// carbide-shared-race: per barrier phase, different threads write provably distinct slots and
// read only slots no other thread writes in that phase.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

constexpr unsigned kBlock = 256;

// A block reduction missing the barrier inside its loop.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void reduce_missing_sync(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  tile[lid] = idx.get() < in.size() ? in[idx.get()] : 0.f;
  carbide::block::sync();
  for (unsigned s = kBlock / 2; s > 0; s /= 2) {
    if (lid.get() < s) tile[lid.get()] += tile[lid.get() + s];
    // CHECK: shared-race.cpp:[[@LINE-1]]:43: error: 'tile[lid.get() + s]' reads a slot of 'tile' that another thread may write in this barrier phase; put carbide::block::sync() between the write and the read [carbide-shared-race]
    // CHECK: note: the write in the same phase
    // CHECK: note: the checker could not prove
  }
  if (float* o = out.get_mut(idx)) *o = tile[0];
  // CHECK: shared-race.cpp:[[@LINE-1]]:41: error: 'tile[0]' reads a slot of 'tile' that another thread may write in this barrier phase
  // CHECK: note: the write in the same phase
  // CHECK: note: the checker could not prove
}

// A transpose tile read back before the barrier.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void reverse_without_sync(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  tile[lid] = in[idx.get()];
  if (float* o = out.get_mut(idx)) *o = tile[kBlock - 1 - lid.get()];
  // CHECK: shared-race.cpp:[[@LINE-1]]:41: error: 'tile[kBlock - 1 - lid.get()]' reads a slot of 'tile' that another thread may write
  // CHECK: note: the write in the same phase
  // CHECK: note: the checker could not prove
}

// Every thread writes one flag slot.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void flag_by_all(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto flag = carbide::block::shared<float, 1>();
  flag[0] = in[idx.get()];
  // CHECK: shared-race.cpp:[[@LINE-1]]:3: error: 'flag[0]' may write the same slot of 'flag' from different threads
  // CHECK: note: the checker could not prove
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = flag[0];
}

// A 2-D tile whose row stride (16) is narrower than the block (32 wide): rows overlap.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1))
void narrow_rows(carbide::span<const float> in, carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d();
  const unsigned tx = carbide::thread::thread_idx().x, ty = carbide::thread::thread_idx().y;
  auto tile = carbide::block::shared<float, 32 * 8>();
  tile[ty * 16 + tx] = in[own.row() * 32 + own.col()];
  // CHECK: shared-race.cpp:[[@LINE-1]]:3: error: 'tile[ty * 16 + tx]' may write the same slot of 'tile' from different threads
  // CHECK: note: the checker could not prove
  carbide::block::sync();
  if (float* o = out.get_mut(own)) *o = tile[tx * 8 + ty];
}

// Counting into shared bins with a plain +=: two threads can lose each other's update.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void lossy_histogram(carbide::span<const unsigned> values, carbide::atomic_span<unsigned> bins) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto counts = carbide::block::shared<unsigned, kBlock>();
  counts[lid] = 0;
  carbide::block::sync();
  if (idx.get() < values.size()) counts[values[idx.get()] % kBlock] += 1;
  // CHECK: shared-race.cpp:[[@LINE-1]]:34: error: 'counts[values[idx.get()] % kBlock]' may update the same slot of 'counts' from different threads at once; count with counts.fetch_add(i, v), an atomic add, or index it by the local witness
  // CHECK: note: the checker could not prove
  carbide::block::sync();
  bins.fetch_add(lid.get(), counts[lid]);
}

// An atomic add and a plain read of the bins in one phase.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void read_while_counting(carbide::span<const unsigned> values, carbide::disjoint_span<unsigned> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto counts = carbide::block::shared<unsigned, kBlock>();
  counts[lid] = 0;
  carbide::block::sync();
  if (idx.get() < values.size()) counts.fetch_add(values[idx.get()] % kBlock, 1u);
  if (unsigned* o = out.get_mut(idx)) *o = counts[lid];
  // CHECK: shared-race.cpp:[[@LINE-1]]:44: error: 'counts[lid]' reads a slot of 'counts' that another thread may write in this barrier phase
  // CHECK: note: the write in the same phase
  // CHECK: note: the checker could not prove
}

// Two handles to dynamic shared memory are one array.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1), dynamic_shared = 4096)
void aliased_dynamic(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto staged = carbide::block::dynamic_shared<float>();
  auto again = carbide::block::dynamic_shared<float>();
  staged[lid] = idx.get() < in.size() ? in[idx.get()] : 0.f;
  if (float* o = out.get_mut(idx)) *o = again[lid.get() + 1];
  // CHECK: shared-race.cpp:[[@LINE-1]]:41: error: 'again[lid.get() + 1]' reads a slot of dynamic shared memory that another thread may write in this barrier phase
  // CHECK: note: the write in the same phase
  // CHECK: note: the checker could not prove
}

// A loop storing rows of a tile with a stride narrower than the block: iterations overlap.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void overlapping_rows(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 4 * kBlock>();
  for (unsigned row = 0; row < 4; ++row) tile[row * (kBlock / 2) + lid.get()] = in[idx.get()];
  // CHECK: shared-race.cpp:[[@LINE-1]]:42: error: 'tile[row * (kBlock / 2) + lid.get()]' may write the same slot of 'tile' from different threads
  // CHECK: note: the checker could not prove
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tile[lid];
}

// A 32 × 8 block storing tile rows in passes four rows apart: thread row 4 of one pass writes
// the row that thread row 0 writes in the next.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1))
void overlapping_rows_2d(carbide::span<const float> in, carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d();
  const unsigned tx = carbide::thread::thread_idx().x, ty = carbide::thread::thread_idx().y;
  auto tile = carbide::block::shared<float, 32 * 33>();
  for (unsigned j = 0; j < 4; ++j) tile[(ty + j * 4) * 33 + tx] = in[tx];
  // CHECK: shared-race.cpp:[[@LINE-1]]:36: error: 'tile[(ty + j * 4) * 33 + tx]' may write the same slot of 'tile' from different threads
  // CHECK: note: the checker could not prove
  carbide::block::sync();
  if (float* o = out.get_mut(own)) *o = tile[tx * 33 + ty];
}

// Each thread of a 16-wide block stores two halves of its row of a slab eight slots apart: the
// second half of thread tx meets the first half of thread tx + 8.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void overlapping_halves(carbide::span<const float> in, carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d();
  const unsigned tx = carbide::thread::thread_idx().x, ty = carbide::thread::thread_idx().y;
  auto slab = carbide::block::shared<float, 16 * 32>();
  slab[ty * 32 + tx] = in[tx];
  slab[ty * 32 + 8 + tx] = in[tx + 8];
  // CHECK: shared-race.cpp:[[@LINE-1]]:3: error: 'slab[ty * 32 + 8 + tx]' and 'slab[ty * 32 + tx]' may write the same slot of 'slab' from different threads in one barrier phase
  // CHECK: note: the write in the same phase
  // CHECK: note: the checker could not prove
  carbide::block::sync();
  if (float* o = out.get_mut(own)) *o = slab[tx * 32 + ty];
}

// Good: the textbook forms.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void tree_reduction(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  auto l = lid.get();
  tile[l] = idx.get() < in.size() ? in[idx.get()] : 0.f;
  carbide::block::sync();
  for (unsigned s = kBlock / 2; s > 0; s /= 2) {
    if (l < s) tile[l] += tile[l + s];
    carbide::block::sync();
  }
  if (lid.get() == 0) tile[0] = tile[0] * 0.5f;
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tile[0];
}

// Good: interleaved addressing, the index a thread's multiple of a doubling stride; `s` is a
// power of two below the block, so 2·s·t and 2·s·t + s never meet.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void strided_tree_reduction(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto tile = carbide::block::shared<float, kBlock>();
  const unsigned t = carbide::thread::thread_idx().x;
  tile[t] = idx.get() < in.size() ? in[idx.get()] : 0.f;
  carbide::block::sync();
  for (unsigned s = 1; s < kBlock; s *= 2) {
    const unsigned index = 2 * s * t;
    if (index < kBlock) tile[index] += tile[index + s];
    carbide::block::sync();
  }
  if (float* o = out.get_mut(idx)) *o = tile[0];
}

// The same with the stride forgotten: thread t adds the slot thread t + 1 updates.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void strided_tree_overlap(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto tile = carbide::block::shared<float, kBlock>();
  const unsigned t = carbide::thread::thread_idx().x;
  tile[t] = idx.get() < in.size() ? in[idx.get()] : 0.f;
  carbide::block::sync();
  for (unsigned s = 1; s < kBlock; s *= 2) {
    const unsigned index = s * t;
    if (index < kBlock) tile[index] += tile[index + s];
    // CHECK: shared-race.cpp:[[@LINE-1]]:{{[0-9]+}}: error: 'tile[index + s]' reads a slot of 'tile' that another thread may write in this barrier phase
    carbide::block::sync();
  }
  if (float* o = out.get_mut(idx)) *o = tile[0];
}

constexpr unsigned kRadius = 3;

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void halo_stencil(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock + 2 * kRadius>();
  const unsigned l = lid.get();
  const std::size_t g = idx.get();
  tile[l + kRadius] = g < in.size() ? in[g] : 0.f;
  if (l < kRadius) {
    tile[l] = g >= kRadius ? in[g - kRadius] : 0.f;
    tile[l + kBlock + kRadius] = g + kBlock < in.size() ? in[g + kBlock] : 0.f;
  }
  carbide::block::sync();
  float sum = 0.f;
  for (unsigned k = 0; k <= 2 * kRadius; ++k) sum += tile[l + k];
  if (float* o = out.get_mut(idx)) *o = sum;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void warp_partials(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto lane = carbide::thread::lane();
  auto partial = carbide::block::shared<float, kBlock / 32>();
  const float s = carbide::warp::reduce_add(idx.get() < in.size() ? in[idx.get()] : 0.f);
  if (lane.get() == 0) partial[lid.get() / 32] = s;
  carbide::block::sync();
  float total = 0.f;
  if (lid.get() / 32 == 0) total = carbide::warp::reduce_add(lane.get() < kBlock / 32 ? partial[lane.get()] : 0.f);
  if (float* o = out.get_mut(idx)) *o = total;
}

// A padded 2-D tile (33 floats a row for a 32-wide block): each thread its own slot.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 32, 1))
void padded_transpose(carbide::span<const float> in, carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d();
  const unsigned tx = carbide::thread::thread_idx().x, ty = carbide::thread::thread_idx().y;
  auto tile = carbide::block::shared<float, 32 * 33>();
  tile[ty * 33 + tx] = in[own.col() * out.rows() + own.row()];
  carbide::block::sync();
  if (float* o = out.get_mut(own)) *o = tile[tx * 33 + ty];
}

// Rows of a tile stored in a loop, a whole block's width apart; half the block stores a
// transposed slab, one row of it per iteration.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void rows_in_a_loop(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 4 * kBlock>();
  for (unsigned row = 0; row < 4; ++row) tile[row * kBlock + lid.get()] = in[idx.get()];
  auto slab = carbide::block::shared<float, 8 * (kBlock / 2)>();
  if (lid.get() < kBlock / 2)
    for (unsigned k = 0; k < 8; ++k) slab[k * (kBlock / 2) + lid.get()] = in[idx.get()];
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tile[3 * kBlock + lid.get()] + slab[lid.get()];
}

// Good: a 32 × 8 block loading a padded 32 × 32 tile in four passes of eight rows.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1))
void tile_rows_2d(carbide::span<const float> in, carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d();
  const unsigned tx = carbide::thread::thread_idx().x, ty = carbide::thread::thread_idx().y;
  auto tile = carbide::block::shared<float, 32 * 33>();
  for (unsigned j = 0; j < 4; ++j) tile[(ty + j * 8) * 33 + tx] = in[tx];
  carbide::block::sync();
  if (float* o = out.get_mut(own)) *o = tile[tx * 33 + ty];
}

// Good: a block's chunks and one halo slot on each side, the halos written by single threads;
// the slots' ranges do not meet.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void halo_slots(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock + 2>();
  tile[lid.get() + 1] = in[idx.get()];
  if (lid.get() == 0) tile[0] = 0.f;
  if (lid.get() == 1) tile[kBlock + 1] = 0.f;
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tile[lid.get()] + tile[lid.get() + 2];
}

// Good: the lower half of a 16 × 16 block stores each thread's eight columns of a slab row as two
// halves 16 slots apart (sgemm's conflict-free layout of B): no two threads meet.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void split_halves(carbide::span<const float> in, carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d();
  const unsigned tx = carbide::thread::thread_idx().x, ty = carbide::thread::thread_idx().y;
  auto slab = carbide::block::shared<float, 8 * 32>();
  if (ty >= 8) {
    slab[(ty - 8) * 32 + tx] = in[tx];
    slab[(ty - 8) * 32 + 16 + tx] = in[tx + 8];
  }
  carbide::block::sync();
  if (float* o = out.get_mut(own)) *o = slab[(ty % 8) * 32 + tx];
}

// Shared bins counted with atomics between two barriers.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void shared_histogram(carbide::span<const unsigned> values, carbide::atomic_span<unsigned> bins) {
  auto lid = carbide::thread::local_index();
  auto counts = carbide::block::shared<unsigned, kBlock>();
  counts[lid] = 0;
  carbide::block::sync();
  for (auto&& w : carbide::thread::grid_stride(values)) counts.fetch_add(values[w.get()] % kBlock, 1u);
  carbide::block::sync();
  bins.fetch_add(lid.get(), counts[lid]);
}

// Helpers that take a shared array are checked at each call, as if inlined there, with their
// parameters standing for the arguments.
void fill(carbide::shared_array<float, kBlock> staged, const carbide::thread::local_index_witness& lid) {
  staged[lid] = 1.f;
}

// Bad: the caller reads a neighbour's slot in the phase the helper wrote it.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void fill_through_helper(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  fill(tile, lid);
  if (float* o = out.get_mut(idx)) *o = tile[(lid.get() + 1) % kBlock];
  // CHECK: shared-race.cpp:[[@LINE-1]]:41: error: 'tile[(lid.get() + 1) % kBlock]' reads a slot of 'tile' that another thread may write in this barrier phase
  // CHECK: shared-race.cpp:[[@LINE-3]]:3: note: the write in the same phase
  // CHECK: shared-race.cpp:[[@LINE-14]]:3: note: the access in the helper, checked as if inlined at the call
}

// Good: the same helper, then a barrier before the neighbour's slot is read.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void fill_through_helper_then_sync(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  fill(tile, lid);
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tile[(lid.get() + 1) % kBlock];
}

// Good: a helper that counts into shared bins with atomics, and one that clears a thread's own
// slots through a slot number passed in; the caller's own accesses are separated by barriers.
void count(carbide::shared_array<unsigned, kBlock>& bins, unsigned value) { bins.fetch_add(value % kBlock, 1u); }
void clear(carbide::shared_array<unsigned, kBlock>& bins, unsigned slot) { bins[slot] = 0; }

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void histogram_through_helpers(carbide::span<const unsigned> values, carbide::atomic_span<unsigned> totals) {
  auto lid = carbide::thread::local_index();
  auto bins = carbide::block::shared<unsigned, kBlock>();
  clear(bins, unsigned(lid.get()));
  carbide::block::sync();
  for (auto&& w : carbide::thread::grid_stride(values)) count(bins, values[w.get()]);
  carbide::block::sync();
  totals.fetch_add(lid.get(), bins[lid]);
}

// Bad: a plain store beside the helper's atomic counts, in one phase.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void histogram_store_beside_helper(carbide::span<const unsigned> values, carbide::atomic_span<unsigned> totals) {
  auto lid = carbide::thread::local_index();
  auto bins = carbide::block::shared<unsigned, kBlock>();
  clear(bins, unsigned(lid.get()));
  carbide::block::sync();
  for (auto&& w : carbide::thread::grid_stride(values)) count(bins, values[w.get()]);
  bins[lid] = 0;
  // CHECK: shared-race.cpp:[[@LINE-1]]:3: error: 'bins[lid]' and 'bins.fetch_add(value % kBlock, 1u)' (in the helper called by 'count(bins, values[w.get()])') may write the same slot of 'bins'
  carbide::block::sync();
  totals.fetch_add(lid.get(), bins[lid]);
}

// A helper with a barrier of its own splits its caller's phases where it is called: its
// accesses to an array passed in are not followed.
void fill_and_sync(carbide::shared_array<float, kBlock> staged, const carbide::thread::local_index_witness& lid) {
  staged[lid] = 1.f;
  // CHECK: shared-race.cpp:[[@LINE-1]]:3: error: 'staged' is a shared array passed in as a parameter
  carbide::block::sync();
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void fill_through_syncing_helper(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  fill_and_sync(tile, lid);
  if (float* o = out.get_mut(idx)) *o = tile[(lid.get() + 1) % kBlock];
}

// A lambda that writes the tile, called after the barrier that was meant to order it: checked at
// the call, where the neighbour's read races it.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void fill_in_lambda(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  const unsigned mine = lid.get();
  auto store = [&](float value) { tile[mine] = value; };
  carbide::block::sync();
  store(2.f);
  if (float* o = out.get_mut(idx)) *o = tile[(lid.get() + 1) % kBlock];
  // CHECK: shared-race.cpp:[[@LINE-1]]:41: error: 'tile[(lid.get() + 1) % kBlock]' reads a slot of 'tile' that another thread may write in this barrier phase
}

// Rows picked by a value computed anew in each iteration: iteration 0 of thread 64 and
// iteration 3 of thread 0 both write slot 64.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void shuffled_rows(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 4 * kBlock>();
  for (unsigned k = 0; k < 4; ++k) {
    const unsigned offset = (k * 3) % 4 * 64;
    tile[offset + lid.get()] = float(k);
    // CHECK: shared-race.cpp:[[@LINE-1]]:5: error: 'tile[offset + lid.get()]' may write the same slot of 'tile' from different threads
    // CHECK: note: the checker could not prove
  }
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tile[lid];
}

// The second tier (Z3) proves the textbook index shapes the affine forms cannot, and leaves real
// collisions of the same shapes reported.

// Good: a bitonic step, each thread its pair pos = 2t - (t & (s - 1)) and pos + s.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void bitonic_pairs(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const unsigned t = carbide::thread::thread_idx().x;
  auto s = carbide::block::shared<float, 2 * kBlock>();
  s[t] = in[idx.get()];
  s[t + kBlock] = in[idx.get()];
  for (unsigned stride = kBlock; stride > 0; stride >>= 1) {
    carbide::block::sync();
    const unsigned pos = 2 * t - (t & (stride - 1));
    const float low = s[pos], high = s[pos + stride];
    s[pos] = low < high ? low : high;
    s[pos + stride] = low < high ? high : low;
  }
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = s[t];
}

// Good: the XOR partner form, the lower thread of each pair swapping both slots.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void xor_partners(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const unsigned t = carbide::thread::thread_idx().x;
  auto s = carbide::block::shared<float, kBlock>();
  s[t] = in[idx.get()];
  carbide::block::sync();
  for (unsigned j = kBlock / 2; j > 0; j >>= 1) {
    const unsigned partner = t ^ j;
    if (partner > t && s[t] > s[partner]) {
      const float low = s[partner];
      s[partner] = s[t];
      s[t] = low;
    }
    carbide::block::sync();
  }
  if (float* o = out.get_mut(idx)) *o = s[t];
}

// Bad: every thread copies its slot into its partner's, so the partner's read of its own slot
// meets this thread's write (the writes alone are a permutation, and fine).
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void xor_both_swap(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const unsigned t = carbide::thread::thread_idx().x;
  auto s = carbide::block::shared<float, kBlock>();
  s[t] = in[idx.get()];
  carbide::block::sync();
  const unsigned partner = t ^ 1u;
  s[partner] = s[t];
  // CHECK: shared-race.cpp:[[@LINE-1]]:16: error: 's[t]' reads a slot of 's' that another thread may write in this barrier phase
  // CHECK: note: the write in the same phase
  // CHECK: note: the checker could not prove
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = s[t];
}

// Good: a Hillis-Steele scan's double buffer. Each step writes buffer pout and reads buffer
// pin = 1 - pout: the reaching definitions give the relation, the definitions give {0, 1}.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void double_buffered_scan(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const unsigned t = carbide::thread::thread_idx().x;
  auto temp = carbide::block::shared<float, 2 * kBlock>();
  int pout = 0, pin = 1;
  temp[pout * kBlock + t] = in[idx.get()];
  carbide::block::sync();
  for (unsigned offset = 1; offset < kBlock; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (t >= offset)
      temp[pout * kBlock + t] = temp[pin * kBlock + t] + temp[pin * kBlock + t - offset];
    else
      temp[pout * kBlock + t] = temp[pin * kBlock + t];
    carbide::block::sync();
  }
  if (float* o = out.get_mut(idx)) *o = temp[pout * kBlock + t];
}

// Bad: the same scan with the buffers swapped in the wrong order, so that pin == pout: each
// step reads its neighbour's slot of the buffer it writes.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void single_buffered_scan(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const unsigned t = carbide::thread::thread_idx().x;
  auto temp = carbide::block::shared<float, 2 * kBlock>();
  int pout = 0, pin = 1;
  temp[pout * kBlock + t] = in[idx.get()];
  carbide::block::sync();
  for (unsigned offset = 1; offset < kBlock; offset *= 2) {
    pin = 1 - pout;
    pout = 1 - pout;
    if (t >= offset) temp[pout * kBlock + t] = temp[pin * kBlock + t] + temp[pin * kBlock + t - offset];
    // CHECK: shared-race.cpp:[[@LINE-1]]:73: error: 'temp[pin * kBlock + t - offset]' reads a slot of 'temp' that another thread may write in this barrier phase
    // CHECK: note: the write in the same phase
    // CHECK: note: the checker could not prove
    carbide::block::sync();
  }
  if (float* o = out.get_mut(idx)) *o = temp[pout * kBlock + t];
}

// Good: the leader form reads the slot only it wrote in the tree's last step, with no barrier
// between (get_mut_block is non-null for local thread 0 alone).
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void leader_reads_its_own_sum(carbide::span<const float> in, carbide::disjoint_span<float> sums) {
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  const std::size_t i = carbide::thread::index_1d().get();
  tile[lid] = i < in.size() ? in[i] : 0.f;
  for (unsigned s = kBlock / 2; s > 0; s >>= 1) {
    carbide::block::sync();
    if (lid.get() < s) tile[lid.get()] += tile[lid.get() + s];
  }
  if (float* sum = sums.get_mut_block(lid)) *sum = tile[0];
}

// Bad: the tree stops at two partial sums (s = 2 is its last step), and the leader reads
// slot 1, which thread 1 writes in that last step's phase.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void leader_reads_another_slot(carbide::span<const float> in, carbide::disjoint_span<float> sums) {
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  const std::size_t i = carbide::thread::index_1d().get();
  tile[lid] = i < in.size() ? in[i] : 0.f;
  for (unsigned s = kBlock / 2; s > 1; s >>= 1) {
    carbide::block::sync();
    if (lid.get() < s) tile[lid.get()] += tile[lid.get() + s];
  }
  if (float* sum = sums.get_mut_block(lid)) *sum = tile[1];
  // CHECK: shared-race.cpp:[[@LINE-1]]:52: error: 'tile[1]' reads a slot of 'tile' that another thread may write in this barrier phase
  // CHECK: note: the write in the same phase
  // CHECK: note: the checker could not prove
}

// Bad: a merge whose first stride is a kernel argument. For a length that is not a power of
// two, stride - 1 is no mask and pairs overlap: length 6 gives stride 3, and threads 1 and 2
// both take slots 2 and 5.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void merge_any_length(carbide::span<const float> in, carbide::disjoint_span<float> out, unsigned length) {
  auto idx = carbide::thread::index_1d();
  const unsigned t = carbide::thread::thread_idx().x;
  auto s = carbide::block::shared<float, 2 * kBlock>();
  s[t] = in[idx.get()];
  s[t + kBlock] = in[idx.get()];
  for (unsigned stride = length / 2; stride > 0; stride >>= 1) {
    carbide::block::sync();
    const unsigned pos = 2 * t - (t & (stride - 1));
    s[pos] += s[pos + stride];
    // CHECK: shared-race.cpp:[[@LINE-1]]:5: error: 's[pos]' may update the same slot of 's' from different threads at once
    // CHECK: note: the checker could not prove
  }
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = s[t];
}

// Good: the same merge once the kernel requires what the host promised, a power-of-two length
// of at most the shared array (CARBIDE_REQUIRE stops the launch otherwise).
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void merge_required_length(carbide::span<const float> in, carbide::disjoint_span<float> out, unsigned length) {
  CARBIDE_REQUIRE(length >= 2 && length <= 2 * kBlock && (length & (length - 1)) == 0);
  auto idx = carbide::thread::index_1d();
  const unsigned t = carbide::thread::thread_idx().x;
  auto s = carbide::block::shared<float, 2 * kBlock>();
  s[t] = in[idx.get()];
  s[t + kBlock] = in[idx.get()];
  for (unsigned stride = length / 2; stride > 0; stride >>= 1) {
    carbide::block::sync();
    const unsigned pos = 2 * t - (t & (stride - 1));
    s[pos] += s[pos + stride];
  }
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = s[t];
}

// Good: a 192-thread block clearing 256 bins a block's width apart, and thread 0 reading the
// slot only it wrote in the last step of a tree reduction.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (192, 1, 1))
void block_stride_bins(carbide::span<const unsigned> values, carbide::atomic_span<unsigned> bins) {
  const unsigned t = carbide::thread::thread_idx().x;
  auto temp = carbide::block::shared<unsigned, 256>();
  for (unsigned i = t; i < 256; i += carbide::thread::block_dim().x) temp[i] = 0;
  carbide::block::sync();
  auto sums = carbide::block::shared<unsigned, 192>();
  sums[t] = values[carbide::thread::index_1d().get()] + temp[t];
  for (unsigned stride = 64; stride > 0; stride >>= 1) {
    carbide::block::sync();
    if (t < stride) sums[t] += sums[t + stride];
  }
  if (carbide::thread::thread_idx().x == 0) bins.exchange(carbide::thread::block_idx().x, sums[0]);
}

// Bad: a stride narrower than the block lets thread 0 and thread 64 clear the same bin.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (192, 1, 1))
void narrow_block_stride(carbide::atomic_span<unsigned> bins) {
  const unsigned t = carbide::thread::thread_idx().x;
  auto temp = carbide::block::shared<unsigned, 256>();
  for (unsigned i = t; i < 256; i += 64) temp[i] = 0;
  // CHECK: shared-race.cpp:[[@LINE-1]]:42: error: 'temp[i]' may write the same slot of 'temp' from different threads
  // CHECK: note: the checker could not prove
  carbide::block::sync();
  if (t == 0) bins.exchange(carbide::thread::block_idx().x, temp[0]);
}

// Good: a separable convolution's staging (16 × 4 block): main part and both halos, each thread
// its column of a 10-wide row of 16-element digits.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 4, 1))
void halo_loops(carbide::span<const float> in, carbide::disjoint_span2d<float> out) {
  const int tx = int(carbide::thread::thread_idx().x);
  const int ty = static_cast<int>(carbide::thread::thread_idx().y);
  auto s = carbide::block::shared<float, 4 * 160>();
  for (int i = 1; i < 9; i += 1) s[ty * 160 + tx + i * 16] = in[std::size_t(i)];
  s[ty * 160 + tx] = 0.f;
  for (int i = 9; i < 10; ++i) s[ty * 160 + tx + i * 16] = 0.f;
  carbide::block::sync();
  if (auto tile = out.get_mut_tile<1, 1>(carbide::thread::index_2d())) tile(0, 0) = s[ty * 160 + tx + 16];
}

// Loop-carried: iteration r reads its neighbour's slot after the barrier, and iteration r + 1
// writes its own slot before the next barrier, while the neighbour may still be reading.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void carried_to_next_iteration(carbide::disjoint_span<float> out, unsigned rounds) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  float v = 1.f;
  for (unsigned r = 0; r < rounds; ++r) {
    tile[lid] = v;
    carbide::block::sync();
    v += tile[(lid.get() + 1) % kBlock];
    // CHECK: shared-race.cpp:[[@LINE-1]]:10: error: 'tile[(lid.get() + 1) % kBlock]' reads a slot of 'tile' that another thread may write in this barrier phase
    // CHECK: note: the write in the same phase
    // CHECK: note: the checker could not prove
  }
  if (float* o = out.get_mut(idx)) *o = v;
}

// A barrier behind a block-uniform condition may not run: on odd rounds the read meets the
// write above it in one phase.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void barrier_on_even_rounds(carbide::disjoint_span<float> out, unsigned rounds) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  float v = 1.f;
  for (unsigned r = 0; r < rounds; ++r) {
    carbide::block::sync();
    tile[lid] = v;
    if (r % 2 == 0) carbide::block::sync();
    v += tile[(lid.get() + 1) % kBlock];
    // CHECK: shared-race.cpp:[[@LINE-1]]:10: error: 'tile[(lid.get() + 1) % kBlock]' reads a slot of 'tile' that another thread may write in this barrier phase
    // CHECK: note: the write in the same phase
    // CHECK: note: the checker could not prove
  }
  if (float* o = out.get_mut(idx)) *o = v;
}

// A loop whose only barrier may run zero times (rounds = 0): the write before it and the read
// after it then share a phase.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void barrier_in_empty_loop(carbide::disjoint_span<float> out, unsigned rounds) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  tile[lid] = 1.f;
  for (unsigned r = 0; r < rounds; ++r) carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tile[(lid.get() + 1) % kBlock];
  // CHECK: shared-race.cpp:[[@LINE-1]]:41: error: 'tile[(lid.get() + 1) % kBlock]' reads a slot of 'tile' that another thread may write in this barrier phase
  // CHECK: note: the write in the same phase
  // CHECK: note: the checker could not prove
}

// Good: Blelloch's work-efficient scan of 2 · kBlock elements. `offset` doubles while d halves,
// so each thread's pair offset·(2t + 1) − 1, offset·(2t + 2) − 1 is its own; the clear after
// the up-sweep meets only its last iteration, where thread 0 alone writes the last slot.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void blelloch_scan(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  constexpr unsigned n = 2 * kBlock;
  auto idx = carbide::thread::index_1d();
  const unsigned t = carbide::thread::thread_idx().x;
  auto tree = carbide::block::shared<float, n>();
  tree[2 * t] = in[2 * idx.get()];
  tree[2 * t + 1] = in[2 * idx.get() + 1];
  unsigned offset = 1;
  for (unsigned d = n >> 1; d > 0; d >>= 1) {
    carbide::block::sync();
    if (t < d) tree[offset * (2 * t + 2) - 1] += tree[offset * (2 * t + 1) - 1];
    offset *= 2;
  }
  if (t == 0) tree[n - 1] = 0;
  for (unsigned d = 1; d < n; d *= 2) {
    offset >>= 1;
    carbide::block::sync();
    if (t < d) {
      const float left = tree[offset * (2 * t + 1) - 1];
      tree[offset * (2 * t + 1) - 1] = tree[offset * (2 * t + 2) - 1];
      tree[offset * (2 * t + 2) - 1] += left;
    }
  }
  carbide::block::sync();
  if (auto mine = out.get_mut_chunk<2>(idx)) {
    mine[0] = tree[2 * t];
    mine[1] = tree[2 * t + 1];
  }
}

// The same down-sweep one level too deep: in its last iteration offset is 0, and every thread
// below d reads and writes slot offset·(2t + 1) − 1 = −1 (wrapped).
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void blelloch_one_level_too_deep(carbide::disjoint_span<float> out) {
  constexpr unsigned n = 2 * kBlock;
  auto idx = carbide::thread::index_1d();
  const unsigned t = carbide::thread::thread_idx().x;
  auto tree = carbide::block::shared<float, n>();
  tree[2 * t] = 1.f;
  tree[2 * t + 1] = 1.f;
  unsigned offset = n;
  for (unsigned d = 1; d < 2 * n; d *= 2) {
    offset >>= 1;
    carbide::block::sync();
    if (t < d) {
      const float left = tree[offset * (2 * t + 1) - 1];
      // CHECK: shared-race.cpp:[[@LINE-1]]:26: error: 'tree[offset * (2 * t + 1) - 1]' reads a slot of 'tree' that another thread may write in this barrier phase
      tree[offset * (2 * t + 1) - 1] = tree[offset * (2 * t + 2) - 1];
      // CHECK: shared-race.cpp:[[@LINE-1]]:7: error: 'tree[offset * (2 * t + 1) - 1]' may write the same slot of 'tree' from different threads
      // CHECK: shared-race.cpp:[[@LINE-2]]:40: error: 'tree[offset * (2 * t + 2) - 1]' reads a slot of 'tree'
      tree[offset * (2 * t + 2) - 1] += left;
      // CHECK: shared-race.cpp:[[@LINE-1]]:7: error: 'tree[offset * (2 * t + 2) - 1]' and 'tree[offset * (2 * t + 1) - 1]' may write the same slot of 'tree' from different threads in one barrier phase
    }
  }
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tree[t];
}

// A helper is checked in each block its callers run it in: its slots `t % 128` are distinct in
// a 128-thread block, and meet in a 256-thread one.
float stage_by_thread(float v) {
  auto slots = carbide::block::shared<float, 128>();
  const unsigned t = carbide::thread::thread_idx().x;
  slots[t % 128] = v;
  // CHECK: shared-race.cpp:[[@LINE-1]]:3: error: 'slots[t % 128]' may write the same slot of 'slots' from different threads
  // CHECK: note: the checker could not prove
  // CHECK: shared-race.cpp:[[@LINE-6]]:7: note: 'stage_by_thread' is called by kernels with different blocks; this holds in the block (256, 1, 1)
  carbide::block::sync();
  return slots[(t + 1) % 128];
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void stage_narrow(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const float v = stage_by_thread(1.f);
  if (float* o = out.get_mut(idx)) *o = v;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void stage_wide(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const float v = stage_by_thread(1.f);
  if (float* o = out.get_mut(idx)) *o = v;
}


// A helper that computes its own index from the thread's coordinates is checked as if inlined:
// its index is encoded in its own terms (its loops and conditions included), and the two
// threads may be in different iterations of its loops, since the whole call is one phase.
using Staging = carbide::shared_array<float, 32 * 33>;

// Good: the transpose's staging loop, each thread rows ty, ty + 4, … of a 33-wide tile.
void stage_rows(Staging& tile, carbide::span<const float> in) {
  const unsigned tx = carbide::thread::thread_idx().x, ty = carbide::thread::thread_idx().y;
  for (unsigned j = 0; j < 8; ++j) tile[(ty + j * 4) * 33 + tx] = in[(ty + j * 4) * 32 + tx];
}

// Bad: thread tx in iteration 1 and thread tx + 16 in iteration 0 write one slot.
void stage_overlapping(Staging& tile, carbide::span<const float> in) {
  const unsigned tx = carbide::thread::thread_idx().x;
  for (unsigned j = 0; j < 2; ++j) tile[tx + j * 16] = in[j];
}

// Bad: the index depends on the helper's parameter, which the checker does not follow.
void stage_shifted(Staging& tile, unsigned by, carbide::span<const float> in) {
  const unsigned tx = carbide::thread::thread_idx().x;
  tile[(tx + by) % 64] = in[0];
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 4, 1))
void staged_by_helpers(carbide::span<const float> in, carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d();
  auto tile = carbide::block::shared<float, 32 * 33>();
  stage_rows(tile, in);
  carbide::block::sync();
  stage_overlapping(tile, in);
  // CHECK: shared-race.cpp:[[@LINE-1]]:3: error: 'tile[tx + j * 16]' (in the helper called by 'stage_overlapping(tile, in)') may write the same slot of 'tile' from different threads
  carbide::block::sync();
  stage_shifted(tile, 3, in);
  // CHECK: shared-race.cpp:[[@LINE-1]]:3: error: 'tile[(tx + by) % 64]' (in the helper called by 'stage_shifted(tile, 3, in)') may write the same slot of 'tile' from different threads
  carbide::block::sync();
  if (float* o = out.get_mut(own)) *o = tile[0];
}

// Bad: per-thread counter columns, but 32 columns for 64 threads: threads t and t + 32 count in
// one column, whatever the data (the loaded word stands for any value).
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (64, 1, 1))
void shared_counter_columns(carbide::span<const unsigned> in, carbide::disjoint_span<unsigned> out) {
  auto idx = carbide::thread::index_1d();
  auto counts = carbide::block::shared<unsigned, 32 * 64>();
  const unsigned data = idx.get() < in.size() ? in[idx.get()] : 0u;
  counts[carbide::thread::thread_idx().x % 32 + (data & 63u) * 32] += 1;
  // CHECK: shared-race.cpp:[[@LINE-1]]:3: error: 'counts[carbide::thread::thread_idx().x % 32 + (data & 63u) * 32]' may update the same slot of 'counts' from different threads at once
  carbide::block::sync();
  if (unsigned* o = out.get_mut(idx)) *o = counts[carbide::thread::thread_idx().x];
}

// Bad: a helper 18 calls below its kernel runs in the kernel's block like any other, and every
// thread writes slot 0 of its own array. (The chain is also deeper than the checker follows
// helpers' shared memory through, which carbide-device-unsupported refuses.)
void deep_flag(carbide::disjoint_span<float> out) {
  auto flag = carbide::block::shared<float, 1>();
  flag[0] = 1.f;
  // CHECK: shared-race.cpp:[[@LINE-1]]:3: error: 'flag[0]' may write the same slot of 'flag' from different threads
  carbide::block::sync();
  if (float* o = out.get_mut(carbide::thread::index_1d())) *o = flag[0];
}
void deep16(carbide::disjoint_span<float> out) { deep_flag(out); }
void deep15(carbide::disjoint_span<float> out) { deep16(out); }
void deep14(carbide::disjoint_span<float> out) { deep15(out); }
void deep13(carbide::disjoint_span<float> out) { deep14(out); }
void deep12(carbide::disjoint_span<float> out) { deep13(out); }
void deep11(carbide::disjoint_span<float> out) { deep12(out); }
void deep10(carbide::disjoint_span<float> out) { deep11(out); }
void deep9(carbide::disjoint_span<float> out) { deep10(out); }
void deep8(carbide::disjoint_span<float> out) { deep9(out); }
// CHECK: shared-race.cpp:[[@LINE-1]]:49: error: call to 'kernels::deep9' more than 9 helpers below a kernel: the checker follows shared memory and barriers through 9 levels of helpers; call it from a shallower helper or fold a level into its caller [carbide-device-unsupported]
void deep7(carbide::disjoint_span<float> out) { deep8(out); }
void deep6(carbide::disjoint_span<float> out) { deep7(out); }
void deep5(carbide::disjoint_span<float> out) { deep6(out); }
void deep4(carbide::disjoint_span<float> out) { deep5(out); }
void deep3(carbide::disjoint_span<float> out) { deep4(out); }
void deep2(carbide::disjoint_span<float> out) { deep3(out); }
void deep1(carbide::disjoint_span<float> out) { deep2(out); }
void deep0(carbide::disjoint_span<float> out) { deep1(out); }

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void deep_helper_race(carbide::disjoint_span<float> out) { deep0(out); }

}  // namespace kernels

namespace escaping {

// Bad: the address of a slot leaves the expression; every thread may write through it, and the
// advice is to read the element by value, not to count with fetch_add.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (64, 1, 1))
void address_of_a_slot(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto s = carbide::block::shared<float, 64>();
  s[lid] = in[idx.get()];
  carbide::block::sync();
  const float* first = &s[0];
  // CHECK: shared-race.cpp:[[@LINE-1]]:25: error: 's[0]' lets the address of a slot of 's', or a mutable reference to it, out of the expression, and the checker counts that as a write by every thread that runs it; read the element by value, or index it by the local witness [carbide-shared-race]
  CARBIDE_UNSAFE("reads one slot every thread wrote before the barrier") {
    if (float* o = out.get_mut(idx)) *o = *first;
  }
}

// Good: the same element read by value.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (64, 1, 1))
void value_of_a_slot(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto s = carbide::block::shared<float, 64>();
  s[lid] = in[idx.get()];
  carbide::block::sync();
  const float first = s[0];
  if (float* o = out.get_mut(idx)) *o = first;
}

}  // namespace escaping
