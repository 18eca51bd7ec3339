// carbide-divergent-barrier: barriers where the whole block arrives, collectives where the whole
// warp arrives.
// RUN: not %carbide check %s 2> %t.err
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

}  // namespace kernels
