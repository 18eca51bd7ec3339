// CUDA's vector types under the rules as every other element type: a float4 element's pointer
// stepped to the next thread's float4; a float4 read through a cast pointer into a float view
// (the message names the views of vector type and the chunk forms); a float2 in shared memory
// written by one thread and read by its neighbour in the same phase.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void next_vector(carbide::span<const float4> in, carbide::disjoint_span<float4> out) {
  auto idx = carbide::thread::index_1d();
  if (float4* e = out.get_mut(idx)) e[1] = in[idx.get()];
  // CHECK: vector-types.cpp:[[@LINE-1]]:37: error: 'e[1]' reaches past the element that 'out.get_mut(idx)' gave this thread; that element belongs to another thread
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void cast_read(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const float4 v = reinterpret_cast<const float4*>(in.data())[idx.get() / 4];
  // CHECK: vector-types.cpp:[[@LINE-1]]:20: error: indexing through raw pointer 'reinterpret_cast<const float4*>(in.data())', whose target the checker cannot tell; {{.*}}. For one vector access of several elements, take the buffer as a view of CUDA's vector type (carbide::span<const float4>, from a DeviceBuffer<float4>), or read x.chunk<4>(i) and write out.get_mut_chunk<4>(idx) [carbide-unsafe-required]
  if (float* e = out.get_mut(idx)) *e = v.x;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void neighbour_pair(carbide::span<const float2> in, carbide::disjoint_span<float2> out) {
  auto idx = carbide::thread::index_1d();
  auto pairs = carbide::block::shared<float2, 256>();
  const unsigned t = carbide::thread::thread_idx().x;
  pairs[t] = idx.get() < in.size() ? in[idx.get()] : make_float2(0.f, 0.f);
  if (float2* e = out.get_mut(idx)) *e = pairs[(t + 1) % 256];
  // CHECK: vector-types.cpp:[[@LINE-1]]:42: error: 'pairs[(t + 1) % 256]' reads a slot of 'pairs' that another thread may write in this barrier phase; put carbide::block::sync() between the write and the read [carbide-shared-race]
}

}  // namespace kernels
