// The dialect is an allow-list (docs/dialect.md): what the barrier phases, the shared accesses
// and the witness rules do not model is refused where it is written. Each kernel here was a way
// past the checker while the analyses read only if, loops and calls by name.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

#include <cstddef>

namespace kernels {

// A barrier in code the call site does not show.
struct Synced {
  Synced() { carbide::block::sync(); }
  ~Synced() { carbide::block::sync(); }
};

float sync_then(float x) {
  carbide::block::sync();
  return x;
}

float with_default(float x, float y = sync_then(0.f)) { return x + y; }

union Forge {
  std::size_t bits;
  const carbide::thread::index_1d_witness* witness;
};

// The conditions are kernel scalars, the same for every thread: no barrier here is divergent.
// switch, continue and goto are edges of the CFG the barrier phases follow: each lets the block
// skip a barrier, so the write before them meets the read after. A barrier inside an expression
// is refused: ?: and && run it for some modes only, and C++ fixes no order between a barrier and
// the rest of an expression (or never runs it, under sizeof).
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 128)
void control_flow(carbide::span<const float> in, carbide::disjoint_span<float> out, int mode) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 128>();
  tile[lid.get()] = in[idx.get()];
  switch (mode) {
    case 1:
      carbide::block::sync();
      break;
    default:
      break;
  }
  for (int step = 0; step < 4; ++step) {
    if (step == mode) continue;
    carbide::block::sync();
  }
  if (mode > 2) goto done;
  carbide::block::sync();
done:
  float v = mode > 3 ? sync_then(1.f) : 0.f;
  // CHECK: device-unsupported-dialect.cpp:[[@LINE-1]]:13: error: a barrier or collective in an arm of '?:': the barrier phases
  bool ok = mode > 4 && sync_then(1.f) > 0.f;
  // CHECK: device-unsupported-dialect.cpp:[[@LINE-1]]:22: error: a barrier or collective on the right of '&&' runs only where the left side lets it
  (void)sizeof((carbide::block::sync(), 0));
  // CHECK: device-unsupported-dialect.cpp:[[@LINE-1]]:17: error: 'carbide::block::sync()' is a barrier inside a larger expression, where C++ does not fix the order it runs in against the rest (or never runs it): call it as a statement of its own [carbide-device-unsupported]
  float w = sync_then(2.f) + tile[(lid.get() + 2) % 128];
  // CHECK: device-unsupported-dialect.cpp:[[@LINE-1]]:13: error: 'sync_then(2.f)' reaches a barrier inside a larger expression
  // CHECK: device-unsupported-dialect.cpp:[[@LINE-2]]:30: error: 'tile[(lid.get() + 2) % 128]' reads a slot of 'tile' that another thread may write
  if (float* o = out.get_mut(idx)) *o = v + w + float(ok) + tile[(lid.get() + 1) % 128];
  // CHECK: device-unsupported-dialect.cpp:[[@LINE-1]]:61: error: 'tile[(lid.get() + 1) % 128]' reads a slot of 'tile' that another thread may write in this barrier phase
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 128)
void implicit_calls(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  Synced guard;
  // CHECK: device-unsupported-dialect.cpp:[[@LINE-1]]:3: error: the destructor of 'Synced' reaches a barrier, a collective or shared memory, which would run unseen when 'guard' goes out of scope
  // CHECK: device-unsupported-dialect.cpp:[[@LINE-2]]:10: error: the constructor of 'Synced' reaches a barrier, a collective or shared memory
  float total = with_default(in[idx.get()]);
  // CHECK: device-unsupported-dialect.cpp:[[@LINE-1]]:17: error: the default argument reaches a barrier, a collective or shared memory
  if (float* o = out.get_mut(idx)) *o = total;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 128)
void forged(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  Forge forge;
  // CHECK: device-unsupported-dialect.cpp:[[@LINE-1]]:9: error: 'forge' holds a union with a witness
  forge.bits = 0;
  const auto* other = reinterpret_cast<const carbide::thread::index_1d_witness*>(&forge.bits);
  // CHECK: device-unsupported-dialect.cpp:[[@LINE-1]]:23: error: a cast from 'std::size_t *' to 'const carbide::thread::index_1d_witness *' would forge or alias a witness
  float* target = nullptr;
  float*& retarget = target;
  // CHECK: device-unsupported-dialect.cpp:[[@LINE-1]]:11: error: 'retarget' is a reference to a pointer
  retarget = out.get_mut(idx);
  (void)other;
  if (float* o = out.get_mut(idx)) *o = in[idx.get()] + (target ? 1.f : 0.f);
}

// Shared memory is known by the call that made its handle: a copy would be a second array to the
// race check.
struct Tiles {
  carbide::shared_array<float, 128> tile;
};

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 128)
void copied_handles(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 128>();
  auto again = tile;
  // CHECK: device-unsupported-dialect.cpp:[[@LINE-1]]:8: error: 'again' copies a shared array handle
  Tiles held{tile};
  // CHECK: device-unsupported-dialect.cpp:[[@LINE-1]]:9: error: 'held' is a 'Tiles', which holds a shared array handle
  (void)again;
  (void)held;
  tile[lid] = in[idx.get()];
  if (float* o = out.get_mut(idx)) *o = tile[lid];
}

}  // namespace kernels
