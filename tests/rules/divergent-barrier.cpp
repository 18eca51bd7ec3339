// carbide-divergent-barrier: barriers where the whole block arrives, collectives where the whole
// warp arrives.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

constexpr unsigned kBlock = 256;

// A reduction with the barrier inside the thread-dependent branch.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void sync_in_branch(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  tile[lid] = in[idx.get()];
  carbide::block::sync();
  for (unsigned s = kBlock / 2; s > 0; s /= 2) {
    if (lid.get() < s) {
      tile[lid.get()] += tile[lid.get() + s];
      carbide::block::sync();
      // CHECK: divergent-barrier.cpp:[[@LINE-1]]:7: error: 'carbide::block::sync()' is under 'lid.get() < s', which differs between threads; every thread of the block must reach it, or the block deadlocks or reads stale data. Move it out of the branch [carbide-divergent-barrier]
      // CHECK: divergent-barrier.cpp:[[@LINE-4]]:9: note: this condition depends on the thread
    }
  }
  if (float* o = out.get_mut(idx)) *o = tile[0];
}

// Threads past the end leave before the barrier.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void early_exit(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  if (idx.get() >= in.size()) return;
  auto tile = carbide::block::shared<float, kBlock>();
  tile[lid] = in[idx.get()];
  carbide::block::sync();
  // CHECK: divergent-barrier.cpp:[[@LINE-1]]:3: error: 'carbide::block::sync()' comes after a thread-dependent early return; every thread of the block must reach it
  // CHECK: divergent-barrier.cpp:[[@LINE-5]]:31: note: threads where 'idx.get() >= in.size()' holds return here
  if (float* o = out.get_mut(idx)) *o = tile[(lid.get() + 1) % kBlock];
}

// Half a warp in a collective.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void half_warp(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lane = carbide::thread::lane();
  float v = in[idx.get()];
  if (lane.get() < 16) v = carbide::warp::reduce_add(v);
  // CHECK: divergent-barrier.cpp:[[@LINE-1]]:28: error: 'carbide::warp::reduce_add(v)' is under 'lane.get() < 16', which differs between threads; every lane of the warp must reach it, or the collective reads lanes that are not there. Move it out of the branch
  // CHECK: note: this condition is not the same for a whole warp
  if (float* o = out.get_mut(idx)) *o = v;
}

// A trip count some threads change: the loop's barrier is divergent, though the counter itself
// starts the same everywhere.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void trip_count_set_in_branch(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  unsigned steps = 4;
  if (lid.get() < 32) steps = 8;
  for (unsigned s = 0; s < steps; ++s) carbide::block::sync();
  // CHECK: divergent-barrier.cpp:[[@LINE-1]]:{{[0-9]+}}: error: {{.*}}[carbide-divergent-barrier]
  if (float* o = out.get_mut(idx)) *o = in[idx.get()];
}

// A block-stride loop (block::grid_stride) runs the same rows in every thread of a block only
// when its count is the block's: here each thread reads its own.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void rows_per_thread(carbide::span<const unsigned> counts, carbide::disjoint_span<float> out) {
  auto lid = carbide::thread::local_index();
  for (auto&& row : carbide::block::grid_stride(counts[lid.get()])) {
    carbide::block::sync();
    // CHECK: divergent-barrier.cpp:[[@LINE-1]]:5: error: 'carbide::block::sync()' is under the loop over 'carbide::block::grid_stride(counts[lid.get()])', which differs between threads
    // CHECK: divergent-barrier.cpp:[[@LINE-3]]:21: note: this range depends on the thread
    if (float* o = out.get_mut_block(lid, row)) *o = 1.0f;
  }
}

// Good: rows dealt out to blocks by a count the whole block shares.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void rows_per_block(carbide::span<const float> in, carbide::disjoint_span<float> out, unsigned rows) {
  auto lid = carbide::thread::local_index();
  auto partial = carbide::block::shared<float, 256>();
  for (auto&& row : carbide::block::grid_stride(rows)) {
    partial[lid.get()] = in[row.get() * 256 + lid.get()];
    carbide::block::sync();
    if (float* o = out.get_mut_block(lid, row)) *o = partial[255];
    carbide::block::sync();
  }
}

// Threads that `continue` skip this iteration's barrier.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void continue_before_sync(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  tile[lid] = in[idx.get()];
  carbide::block::sync();
  for (unsigned s = kBlock / 2; s > 0; s /= 2) {
    if (lid.get() >= s) continue;
    tile[lid] = tile[lid] + tile[lid.get() + s];
    carbide::block::sync();
    // CHECK: divergent-barrier.cpp:[[@LINE-1]]:5: error: 'carbide::block::sync()' comes after a thread-dependent 'continue'; every thread of the block must reach it
    // CHECK: divergent-barrier.cpp:[[@LINE-4]]:25: note: threads where 'lid.get() >= s' holds skip to the next iteration here
  }
  if (float* o = out.get_mut(idx)) *o = tile[0];
}

// Threads that `break` miss every later barrier of the loop.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void break_before_sync(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  float v = 0.f;
  for (unsigned r = 0; r < 8; ++r) {
    if (in[idx.get()] > float(r)) break;
    v += 1.f;
    carbide::block::sync();
    // CHECK: divergent-barrier.cpp:[[@LINE-1]]:5: error: 'carbide::block::sync()' comes after a thread-dependent 'break'
    // CHECK: divergent-barrier.cpp:[[@LINE-4]]:35: note: threads where 'in[idx.get()] > float(r)' holds break out of the loop here
  }
  if (float* o = out.get_mut(idx)) *o = v;
}

// A barrier in one case of a switch on the thread.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void sync_in_case(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  switch (lid.get() % 4) {
    case 0:
      carbide::block::sync();
      // CHECK: divergent-barrier.cpp:[[@LINE-1]]:7: error: 'carbide::block::sync()' is under 'lid.get() % 4', which differs between threads
      break;
    default:
      break;
  }
  if (float* o = out.get_mut(idx)) *o = in[idx.get()];
}

// An early return whose branch does more than return.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void early_exit_block(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  float* o = out.get_mut(idx);
  if (o == nullptr) {
    tile[lid] = 0.f;
    return;
  }
  tile[lid] = in[idx.get()];
  carbide::block::sync();
  // CHECK: divergent-barrier.cpp:[[@LINE-1]]:3: error: 'carbide::block::sync()' comes after a thread-dependent early return
  // CHECK: divergent-barrier.cpp:[[@LINE-5]]:5: note: threads where 'o == nullptr' holds return here
  *o = tile[(lid.get() + 1) % kBlock];
}

// Every warp function is a collective: shfl_up and inclusive_scan_add too.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void scan_in_half_warp(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lane = carbide::thread::lane();
  float v = in[idx.get()];
  if (lane.get() < 16) v = carbide::warp::shfl_up(v, 1u);
  // CHECK: divergent-barrier.cpp:[[@LINE-1]]:28: error: 'carbide::warp::shfl_up(v, 1u)' is under 'lane.get() < 16'
  if (lane.get() >= 8) v = carbide::warp::inclusive_scan_add(v);
  // CHECK: divergent-barrier.cpp:[[@LINE-1]]:28: error: 'carbide::warp::inclusive_scan_add(v)' is under 'lane.get() >= 8'
  if (float* o = out.get_mut(idx)) *o = v;
}

// A helper's barrier is the caller's: calling it under a thread-dependent branch diverges.
void stage(carbide::shared_array<float, kBlock> tile) {
  carbide::block::sync();
  (void)tile;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void helper_sync_in_branch(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  if (lid.get() < 100) stage(tile);
  // CHECK: divergent-barrier.cpp:[[@LINE-1]]:24: error: 'stage(tile)' reaches 'carbide::block::sync()' and is under 'lid.get() < 100', which differs between threads
  // CHECK: divergent-barrier.cpp:[[@LINE-12]]:3: note: the barrier the call reaches
  if (float* o = out.get_mut(idx)) *o = in[idx.get()];
}

// Good: uniform loops around barriers, collectives under warp-uniform conditions, guarded work.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void good(carbide::span<const float> in, carbide::disjoint_span<float> out, unsigned rounds) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  for (unsigned r = 0; r < rounds; ++r) {
    tile[lid] = idx.get() < in.size() ? in[idx.get()] : 0.f;
    carbide::block::sync();
    float v = tile[(lid.get() + r) % kBlock];
    if (lid.get() / 32 == 0) v = carbide::warp::reduce_add(v);
    carbide::block::sync();
    if (float* o = out.get_mut(idx)) *o = v;
  }
}

// Good: a warp's shuffles under `tid < 32`, which is the same for whole warps of a 256-thread
// block; a barrier after a loop some threads break out of (every thread reaches it); a helper
// with a barrier called where every thread calls it.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void good_warp_uniform_by_value(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const int tid = int(carbide::thread::thread_idx().x);
  float v = in[idx.get()];
  if (tid < 32) {
    for (unsigned offset = 16; offset > 0; offset /= 2) v += carbide::warp::shfl_down(v, offset);
  }
  for (unsigned r = 0; r < 8; ++r)
    if (v > float(r)) break;
  carbide::block::sync();
  auto tile = carbide::block::shared<float, kBlock>();
  stage(tile);
  if (float* o = out.get_mut(idx)) *o = v;
}

// Good: a helper is checked once per calling contract. `tid < 32` is the same for whole warps in
// both blocks that call `warp_total` (with the blocks of all callers merged into one unknown
// shape, it could not be shown).
float warp_total(float v) {
  const unsigned tid = carbide::thread::thread_idx().x;
  if (tid < 32)
    for (unsigned offset = 16; offset > 0; offset /= 2) v += carbide::warp::shfl_down(v, offset);
  return v;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void warp_total_narrow(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const float v = warp_total(in[idx.get()]);
  if (float* o = out.get_mut(idx)) *o = v;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void warp_total_wide(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const float v = warp_total(in[idx.get()]);
  if (float* o = out.get_mut(idx)) *o = v;
}

}  // namespace kernels

namespace by_value {

// Good: in a (32, 8, 1) block, a flat id written by hand, `ty * 32 + tx < 32`, is the first
// warp exactly, so its shuffles have every lane; and `thread_idx().x < 32` holds for every
// thread, so the barrier under it is reached by the whole block.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1))
void rows_of_warps(carbide::span<const float> in, carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d();
  const unsigned tx = carbide::thread::thread_idx().x, ty = carbide::thread::thread_idx().y;
  const unsigned tid = ty * 32 + tx;
  auto partial = carbide::block::shared<float, 256>();
  partial[tid] = in[tid];
  carbide::block::sync();
  float total = 0.f;
  if (tid < 32) total = carbide::warp::reduce_add(partial[tid] + partial[tid + 32]);
  if (tx < 32) carbide::block::sync();
  if (float* o = out.get_mut(own)) *o = total;
}

// A flat id in a (16, 16, 1) block: `tid < 16` is half of the first warp.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void half_warp_by_hand(carbide::span<const float> in, carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d();
  const unsigned tx = carbide::thread::thread_idx().x, ty = carbide::thread::thread_idx().y;
  const unsigned tid = ty * 16 + tx;
  float total = 0.f;
  if (tid < 16) total = carbide::warp::reduce_add(in[tid]);
  // CHECK: divergent-barrier.cpp:[[@LINE-1]]:25: error: 'carbide::warp::reduce_add(in[tid])' is under 'tid < 16', which differs between threads; every lane of the warp must reach it
  // CHECK: note: this condition is not the same for a whole warp
  // Half the block: the barrier diverges.
  if (tid < 128) carbide::block::sync();
  // CHECK: divergent-barrier.cpp:[[@LINE-1]]:18: error: 'carbide::block::sync()' is under 'tid < 128', which differs between threads
  // CHECK: note: this condition depends on the thread
  if (float* o = out.get_mut(own)) *o = total;
}

}  // namespace by_value
