// The same layer normalization of 4096-element bf16 rows as a CUDA programmer writes it by hand:
// a block of 256 threads a row, each thread two 16-byte vectors, two-pass statistics in f32 (the
// mean, then the mean of squared deviations) through warp shuffles and one shared array of the
// warps' partials, gamma and beta streamed a vector at a time. The benchmark's twin of
// tile_layernorm.cpp.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace reference {
namespace {

constexpr int kColumns = 4096, kThreads = 256, kVectors = kColumns / 8 / kThreads;

__device__ __forceinline__ float block_sum(float v, float* partials) {
#pragma unroll
  for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
  __syncthreads();  // the previous use of partials has been read
  if (threadIdx.x % 32 == 0) partials[threadIdx.x / 32] = v;
  __syncthreads();
  float total = 0;
#pragma unroll
  for (int w = 0; w < kThreads / 32; ++w) total += partials[w];
  return total;
}

__global__ void __launch_bounds__(kThreads) layernorm(__nv_bfloat16* y, const __nv_bfloat16* x,
                                                      const __nv_bfloat16* gamma, const __nv_bfloat16* beta, float eps) {
  __shared__ float partials[kThreads / 32];
  const __nv_bfloat16* in = x + std::int64_t(blockIdx.x) * kColumns;
  float v[kVectors][8];
#pragma unroll
  for (int i = 0; i < kVectors; ++i) {
    const uint4 raw = *reinterpret_cast<const uint4*>(in + (i * kThreads + threadIdx.x) * 8);
    const __nv_bfloat162* pairs = reinterpret_cast<const __nv_bfloat162*>(&raw);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const float2 f = __bfloat1622float2(pairs[j]);
      v[i][2 * j] = f.x, v[i][2 * j + 1] = f.y;
    }
  }
  float s = 0;
#pragma unroll
  for (int i = 0; i < kVectors; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) s += v[i][j];
  const float mean = block_sum(s, partials) / kColumns;
  float q = 0;
#pragma unroll
  for (int i = 0; i < kVectors; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) v[i][j] -= mean, q += v[i][j] * v[i][j];
  const float rstd = rsqrtf(block_sum(q, partials) / kColumns + eps);
  __nv_bfloat16* out = y + std::int64_t(blockIdx.x) * kColumns;
#pragma unroll
  for (int i = 0; i < kVectors; ++i) {
    const int column = (i * kThreads + threadIdx.x) * 8;
    const uint4 graw = *reinterpret_cast<const uint4*>(gamma + column), braw = *reinterpret_cast<const uint4*>(beta + column);
    const __nv_bfloat162* gs = reinterpret_cast<const __nv_bfloat162*>(&graw);
    const __nv_bfloat162* bs = reinterpret_cast<const __nv_bfloat162*>(&braw);
    uint4 r;
    __nv_bfloat162* rs = reinterpret_cast<__nv_bfloat162*>(&r);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const float2 g = __bfloat1622float2(gs[j]), b = __bfloat1622float2(bs[j]);
      rs[j] = __floats2bfloat162_rn(v[i][2 * j] * rstd * g.x + b.x, v[i][2 * j + 1] * rstd * g.y + b.y);
    }
    *reinterpret_cast<uint4*>(out + column) = r;
  }
}

}  // namespace

void launch_tile_layernorm(void* y, const void* x, const void* gamma, const void* beta, float eps, unsigned rows) {
  layernorm<<<rows, kThreads>>>(static_cast<__nv_bfloat16*>(y), static_cast<const __nv_bfloat16*>(x),
                                static_cast<const __nv_bfloat16*>(gamma), static_cast<const __nv_bfloat16*>(beta), eps);
}

}  // namespace reference
