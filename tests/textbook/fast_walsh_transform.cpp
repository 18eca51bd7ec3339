// fast_walsh_transform.cpp — port of `fwtBatch1Kernel` from cuda-samples
// 5_Domain_Specific/fastWalshTransform (fastWalshTransform_kernel.cuh): one block transforms one
// 2^log2N-element vector in shared memory (log2N = ELEMENTARY_LOG2SIZE = 11, block N / 4 = 512
// threads, `extern __shared__ float s_data[]` of N floats): a strided load loop, radix-4
// butterfly stages `lo = pos & (stride - 1); i0 = ((pos - lo) << 2) + lo; i1..i3 = i0 + stride…`
// with `stride = N >> 2; stride > 0; stride >>= 2`, one radix-2 stage when log2N is odd, and a
// strided store loop. Launched as `fwtBatch1Kernel<<<M, N / 4, N * sizeof(float)>>>`.
//
// Changed from the textbook:
// - the sample launches it with block N / 4 for log2N = 10 or 11 (whatever its radix-4 passes left);
//   a contract fixes one block, 512 threads, so log2N = 11 is this port's precondition (log2N
//   stays a kernel parameter as in the sample);
// - the sample runs in place (`fwtBatch1Kernel(d_Data, d_Data, log2N)`); an exclusive output may
//   not alias an input of the same launch, so input and output are two buffers;
// - `extern __shared__ float s_data[]` → `block::dynamic_shared<float>()` with the contract's
//   `dynamic_shared = N * sizeof(float)`;
// - `float *d_Src = d_Input + base` → `d_Input[base + pos]`;
// - the store loop `for (pos = tid; pos < N; pos += blockDim.x) d_Dst[pos] = s_data[pos]` writes
//   elements base + tid + 512·j, j < 4: exactly `get_mut_strided_chunks<1, 4>(index_1d())`, so the
//   loop keeps its form and carries the piece number j beside pos;
// - `cg::sync(cta)` → `block::sync()`; threadIdx/blockIdx/blockDim → thread_idx()/block_idx()/
//   block_dim(); the sample's `int` arithmetic kept.
//
// Accepted by `carbide check` with no finding:
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

constexpr int ELEMENTARY_LOG2SIZE = 11;
constexpr int kN = 1 << ELEMENTARY_LOG2SIZE;
constexpr int kThreads = kN / 4;
constexpr int kSharedBytes = kN * 4;

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kThreads)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kThreads, 1, 1), dynamic_shared = kSharedBytes)
void fwtBatch1Kernel(carbide::disjoint_span<float> d_Output, carbide::span<const float> d_Input, int log2N) {
  auto idx = carbide::thread::index_1d();
  const int N = 1 << log2N;
  const int base = carbide::thread::block_idx().x << log2N;

  //(2 ** 11) * 4 bytes == 8KB -- maximum s_data[] size for G80
  auto s_data = carbide::block::dynamic_shared<float>();

  for (int pos = carbide::thread::thread_idx().x; pos < N; pos += carbide::thread::block_dim().x) {
    s_data[pos] = d_Input[base + pos];
  }

  // Main radix-4 stages
  const int pos = carbide::thread::thread_idx().x;

  for (int stride = N >> 2; stride > 0; stride >>= 2) {
    int lo = pos & (stride - 1);
    int i0 = ((pos - lo) << 2) + lo;
    int i1 = i0 + stride;
    int i2 = i1 + stride;
    int i3 = i2 + stride;

    carbide::block::sync();
    float D0 = s_data[i0];
    float D1 = s_data[i1];
    float D2 = s_data[i2];
    float D3 = s_data[i3];

    float T;
    T = D0;
    D0 = D0 + D2;
    D2 = T - D2;
    T = D1;
    D1 = D1 + D3;
    D3 = T - D3;
    T = D0;
    s_data[i0] = D0 + D1;
    s_data[i1] = T - D1;
    T = D2;
    s_data[i2] = D2 + D3;
    s_data[i3] = T - D3;
  }

  // Do single radix-2 stage for odd power of two
  if (log2N & 1) {
    carbide::block::sync();

    for (int pos = carbide::thread::thread_idx().x; pos < N / 2; pos += carbide::thread::block_dim().x) {
      int i0 = pos << 1;
      int i1 = i0 + 1;

      float D0 = s_data[i0];
      float D1 = s_data[i1];
      s_data[i0] = D0 + D1;
      s_data[i1] = D0 - D1;
    }
  }

  carbide::block::sync();

  if (auto mine = d_Output.get_mut_strided_chunks<1, kN / kThreads>(idx)) {
    for (int pos = carbide::thread::thread_idx().x, j = 0; pos < N; pos += carbide::thread::block_dim().x, ++j) {
      mine.store(j, carbide::vec<float, 1>{{s_data[pos]}});
    }
  }
}

}  // namespace kernels
