// The same stencil as a CUDA programmer writes it by hand: radius 4, two float4s of output per
// thread 256 float4s apart, the block's 2048 elements and a float4 of halo on each side in shared
// memory, the nine weights in a kernel argument. The benchmark's twin.
#include <cuda_runtime.h>

#include <cstdint>

namespace reference {

struct StencilWeights {
  float tap[9];
};

__global__ void __launch_bounds__(256) stencil(const float* __restrict__ in, size_t n,
                                               StencilWeights weights, float* __restrict__ out) {
  __shared__ float4 tile[512 + 2];
  const float4* in4 = reinterpret_cast<const float4*>(in);
  const size_t whole = n / 4, chunks = (n + 3) / 4, first = size_t(blockIdx.x) * 512;
  // A float4 of `in`, zeros past the end (the last partial one element by element).
  auto load = [&](size_t c) {
    if (c < whole) return __ldg(in4 + c);
    float v[4] = {0.f, 0.f, 0.f, 0.f};
    for (int j = 0; j < 4; ++j)
      if (c * 4 + j < n) v[j] = __ldg(in + c * 4 + j);
    return make_float4(v[0], v[1], v[2], v[3]);
  };
#pragma unroll
  for (unsigned q = 0; q < 2; ++q) tile[q * 256 + threadIdx.x + 1] = load(first + q * 256 + threadIdx.x);
  if (threadIdx.x == 0) tile[0] = first > 0 ? load(first - 1) : make_float4(0.f, 0.f, 0.f, 0.f);
  if (threadIdx.x == 1) tile[513] = load(first + 512);
  __syncthreads();
#pragma unroll
  for (unsigned q = 0; q < 2; ++q) {
    const unsigned at = q * 256 + threadIdx.x;
    const size_t own = first + at;
    if (own >= chunks) return;
    float around[12];
#pragma unroll
    for (int c = 0; c < 3; ++c) {
      const float4 part = tile[at + c];
      around[c * 4] = part.x, around[c * 4 + 1] = part.y, around[c * 4 + 2] = part.z, around[c * 4 + 3] = part.w;
    }
    float result[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      float sum = 0.f;
#pragma unroll
      for (int k = 0; k < 9; ++k) sum += weights.tap[k] * around[i + k];
      result[i] = sum;
    }
    if (own * 4 + 4 <= n) {
      reinterpret_cast<float4*>(out)[own] = make_float4(result[0], result[1], result[2], result[3]);
    } else {
      for (int i = 0; i < 4; ++i)
        if (own * 4 + i < n) out[own * 4 + i] = result[i];
    }
  }
}

void launch_stencil(const float* in, size_t n, const float* weights, float* out) {
  StencilWeights taps;
  for (int k = 0; k < 9; ++k) taps.tap[k] = weights[k];
  stencil<<<unsigned((n + 2047) / 2048), 256>>>(in, n, taps, out);
}

}  // namespace reference
