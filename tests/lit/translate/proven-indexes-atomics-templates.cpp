// What the checker proves in range reaches code generation beyond plain subscripts: a shared
// fetch_add's index, and a template helper's subscripts when every instantiation proves them
// (one text serves all instantiations, so one that cannot keeps the check for all).
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck %s < %t/proven-indexes-atomics-templates.carbide.cu
// RUN: %ptxas -arch=sm_90 %t/proven-indexes-atomics-templates.ptx -o /dev/null
#include <carbide/carbide.hpp>

namespace proofs {

// Instantiated with 256 slots from a 128-thread block (in range) and with 300 slots from a
// 256-thread block, where thread 255 reads slot 319: checked in both.
template <std::size_t Slots>
CARBIDE_DEVICE float neighbour(carbide::shared_array<float, Slots>& tile) {
  const unsigned t = carbide::thread::thread_idx().x;
  // CHECK: return tile[t + 64];
  return tile[t + 64];
}

// Instantiated with 128 and 256 slots, both with a 128-thread block: every instance in range.
template <std::size_t Slots>
CARBIDE_DEVICE float mirrored(carbide::shared_array<float, Slots>& tile) {
  const unsigned t = carbide::thread::thread_idx().x;
  // CHECK: return tile[::carbide::detail::in_range(127 - t)];
  return tile[127 - t];
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void counts(carbide::span<const unsigned> in, carbide::disjoint_span<unsigned> out) {
  auto own = carbide::thread::index_1d();
  const unsigned t = carbide::thread::thread_idx().x;
  auto bins = carbide::block::shared<unsigned, 64>();
  if (t < 64) bins[t] = 0;
  carbide::block::sync();
  // CHECK: bins.fetch_add(::carbide::detail::in_range(in[own.get()] & 63u), 1u);
  bins.fetch_add(in[own.get()] & 63u, 1u);
  // A value of the input: checked.
  // CHECK: bins.fetch_add(in[own.get()], 1u);
  bins.fetch_add(in[own.get()], 1u);
  carbide::block::sync();
  if (unsigned* element = out.get_mut(own)) *element = t < 64 ? bins[t] : 0u;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void templated(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto own = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto small = carbide::block::shared<float, 128>();
  auto large = carbide::block::shared<float, 256>();
  small[lid] = in[own.get()];
  large[lid] = in[own.get()];
  carbide::block::sync();
  float sum = mirrored(small) + mirrored(large);
  sum += neighbour(large);
  if (float* element = out.get_mut(own)) *element = sum;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void wider(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto own = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, 300>();
  tile[lid] = in[own.get()];
  carbide::block::sync();
  const float sum = neighbour(tile);
  if (float* element = out.get_mut(own)) *element = sum;
}

}  // namespace proofs
