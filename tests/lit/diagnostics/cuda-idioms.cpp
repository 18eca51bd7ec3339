// CUDA's own spellings in a kernel get an error naming the Carbide form to write, at the user's
// line (docs/migrating-from-cuda.md), instead of "use of undeclared identifier".
// RUN: not %carbide check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void moved_from_cuda(carbide::atomic_span<unsigned> bins, carbide::disjoint_span<float> out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: cuda-idioms.cpp:[[@LINE-1]]:22: error: 'blockIdx' is unavailable: in a Carbide kernel, write carbide::thread::block_idx()
  // CHECK: cuda-idioms.cpp:[[@LINE-2]]:35: error: 'blockDim' is unavailable: in a Carbide kernel, write carbide::thread::block_dim()
  // CHECK: cuda-idioms.cpp:[[@LINE-3]]:48: error: 'threadIdx' is unavailable: in a Carbide kernel, write carbide::thread::thread_idx() (or, to reach outputs, the witness carbide::thread::index_1d() or index_2d())
  const unsigned blocks = gridDim.x;
  // CHECK: cuda-idioms.cpp:[[@LINE-1]]:27: error: 'gridDim' is unavailable: in a Carbide kernel, write carbide::thread::grid_dim()
  __syncthreads();
  // CHECK: cuda-idioms.cpp:[[@LINE-1]]:3: error: '__syncthreads<>' is unavailable: in a Carbide kernel, write carbide::block::sync()
  atomicAdd(&bins, 1u);
  // CHECK: cuda-idioms.cpp:[[@LINE-1]]:3: error: 'atomicAdd<{{.*}}>' is unavailable: in a Carbide kernel, take the output as a carbide::atomic_span<T> and write view.fetch_add(i, v); in shared memory, tile.fetch_add(i, v)
  const float v = __shfl_down_sync(0xffffffffu, 1.f, 16) + float(warpSize) + float(blocks);
  // CHECK: cuda-idioms.cpp:[[@LINE-1]]:19: error: '__shfl_down_sync<{{.*}}>' is unavailable: in a Carbide kernel, write carbide::warp::shfl_down(value, delta) (all 32 lanes take part)
  // CHECK: cuda-idioms.cpp:[[@LINE-2]]:66: error: 'warpSize' is unavailable: in a Carbide kernel, a warp is 32 threads
  out[i] = v;
  // CHECK: cuda-idioms.cpp:[[@LINE-1]]:6: error: 'operator[]' is unavailable: in a Carbide kernel, a disjoint_span has no subscript, so that a thread writes only its own elements: write `if (T* e = view.get_mut(idx)) *e = ...;`
}

// The cache-hinted loads and stores name the span's read and the streaming methods.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void cached_accesses(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const float a = __ldg(in.data()) + __ldcs(in.data());
  // CHECK: cuda-idioms.cpp:[[@LINE-1]]:19: error: '__ldg<{{.*}}>' is unavailable: in a Carbide kernel, read the element of a carbide::span<const T> as in[i]: a span's read is already a read-only-cache load (ld.global.nc)
  // CHECK: cuda-idioms.cpp:[[@LINE-2]]:38: error: '__ldcs<{{.*}}>' is unavailable: in a Carbide kernel, write x.load_streaming(i) on a carbide::span<const T>
  if (float* e = out.get_mut(idx)) __stcs(e, a);
  // CHECK: cuda-idioms.cpp:[[@LINE-1]]:36: error: '__stcs<{{.*}}>' is unavailable: in a Carbide kernel, write row.store_streaming(k, v) on a warp row or a block region
}

}  // namespace kernels
