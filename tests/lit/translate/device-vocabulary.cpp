// The whole device vocabulary compiles through nvcc and ptxas: shared tiles (one array per call
// site), barriers, warp collectives, atomics, 2-D views, grid-stride loops.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck %s < %t/device-vocabulary.carbide.cu
// RUN: FileCheck --check-prefix=HPP %s < %t/device-vocabulary.carbide.hpp
// RUN: %ptxas -arch=sm_90 %t/device-vocabulary.ptx -o /dev/null
// RUN: FileCheck --check-prefix=PTX %s < %t/device-vocabulary.ptx
#include <carbide/carbide.hpp>

namespace vocab {

constexpr unsigned kBlock = 256;

template <unsigned N>
float tile_sum(const carbide::thread::local_index_witness& lid, float value) {
  auto tile = carbide::block::shared<float, N>();
  tile[lid] = value;
  carbide::block::sync();
  for (unsigned s = N / 2; s > 0; s /= 2) {
    if (lid.get() < s) tile[lid.get()] += tile[lid.get() + s];
    carbide::block::sync();
  }
  return tile[0];
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void block_sums(carbide::span<const float> in, carbide::disjoint_span<float> out,
                carbide::atomic_span<unsigned> count) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto lane = carbide::thread::lane();
  const float value = idx.get() < in.size() ? in[idx.get()] : 0.f;
  const float block_total = tile_sum<kBlock>(lid, value);
  auto partial = carbide::block::shared<float, kBlock / 32>();
  const float warp_total = carbide::warp::reduce_add(value);
  if (lane.get() == 0) partial[lid.get() / 32] = warp_total;
  carbide::block::sync();
  if (lid.get() == 0) count.fetch_add(0, 1u);
  if (float* o = out.get_mut(idx)) *o = block_total + partial[0] * 0.f;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void fill2d(carbide::disjoint_span2d<float> m, float value) {
  auto at = carbide::thread::index_2d();
  if (float* e = m.get_mut(at)) *e = value + float(at.row());
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void scale_all(carbide::span<const float> in, carbide::disjoint_span<float> out, float a) {
  for (auto&& w : carbide::thread::grid_stride(out))
    if (float* e = out.get_mut(w)) *e = a * in[w.get()];
}

}  // namespace vocab

// CHECK: auto tile = carbide::block::shared_at<float, N, 0>();
// CHECK: auto partial = carbide::block::shared_at<float, kBlock / 32, 1>();

// HPP: carbide::DeviceBuffer<unsigned int>& count) const;
// HPP: void fill2d(const carbide::Stream& stream, const carbide::Prepared<fill2d_kernel>& prepared,
// HPP-NEXT: carbide::DeviceBuffer2D<float>& m,

// PTX: .entry carbide_vocab_block_sums(
// PTX: .reqntid 256, 1, 1
// PTX: .entry carbide_vocab_fill2d(
// PTX: .reqntid 16, 16, 1
