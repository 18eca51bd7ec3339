// The same c = a + b as a CUDA programmer writes it by hand, in f32 and bf16: 256 threads, each
// four 16-byte vectors of each operand in flight, a scalar loop for the last partial block.
// The benchmark's twins of tile_add.cpp.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace reference {
namespace {

constexpr int kThreads = 256, kVectors = 4;

__global__ void __launch_bounds__(kThreads) add_f32(float* c, const float* a, const float* b, std::int64_t n) {
  const std::int64_t base = std::int64_t(blockIdx.x) * kThreads * kVectors * 4;
  if (base + kThreads * kVectors * 4 <= n) {
    float4 x[kVectors], y[kVectors];
#pragma unroll
    for (int i = 0; i < kVectors; ++i) {
      const std::int64_t at = base + (i * kThreads + threadIdx.x) * 4;
      x[i] = *reinterpret_cast<const float4*>(a + at), y[i] = *reinterpret_cast<const float4*>(b + at);
    }
#pragma unroll
    for (int i = 0; i < kVectors; ++i) {
      const std::int64_t at = base + (i * kThreads + threadIdx.x) * 4;
      *reinterpret_cast<float4*>(c + at) = make_float4(x[i].x + y[i].x, x[i].y + y[i].y, x[i].z + y[i].z, x[i].w + y[i].w);
    }
  } else {
    for (std::int64_t at = base + threadIdx.x; at < n; at += kThreads) c[at] = a[at] + b[at];
  }
}

__device__ __forceinline__ uint4 add_bf16x8(uint4 x, uint4 y) {
  uint4 r;
  const __nv_bfloat162* xs = reinterpret_cast<const __nv_bfloat162*>(&x);
  const __nv_bfloat162* ys = reinterpret_cast<const __nv_bfloat162*>(&y);
  __nv_bfloat162* rs = reinterpret_cast<__nv_bfloat162*>(&r);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const float2 p = __bfloat1622float2(xs[i]), q = __bfloat1622float2(ys[i]);
    rs[i] = __floats2bfloat162_rn(p.x + q.x, p.y + q.y);
  }
  return r;
}

__global__ void __launch_bounds__(kThreads)
    add_bf16(__nv_bfloat16* c, const __nv_bfloat16* a, const __nv_bfloat16* b, std::int64_t n) {
  const std::int64_t base = std::int64_t(blockIdx.x) * kThreads * kVectors * 8;
  if (base + kThreads * kVectors * 8 <= n) {
    uint4 x[kVectors], y[kVectors];
#pragma unroll
    for (int i = 0; i < kVectors; ++i) {
      const std::int64_t at = base + (i * kThreads + threadIdx.x) * 8;
      x[i] = *reinterpret_cast<const uint4*>(a + at), y[i] = *reinterpret_cast<const uint4*>(b + at);
    }
#pragma unroll
    for (int i = 0; i < kVectors; ++i)
      *reinterpret_cast<uint4*>(c + base + (i * kThreads + threadIdx.x) * 8) = add_bf16x8(x[i], y[i]);
  } else {
    for (std::int64_t at = base + threadIdx.x; at < n; at += kThreads)
      c[at] = __float2bfloat16_rn(__bfloat162float(a[at]) + __bfloat162float(b[at]));
  }
}

}  // namespace

void launch_tile_add_f32(float* c, const float* a, const float* b, std::size_t n) {
  const std::size_t per_block = kThreads * kVectors * 4;
  add_f32<<<unsigned((n + per_block - 1) / per_block), kThreads>>>(c, a, b, std::int64_t(n));
}

void launch_tile_add_bf16(void* c, const void* a, const void* b, std::size_t n) {
  const std::size_t per_block = kThreads * kVectors * 8;
  add_bf16<<<unsigned((n + per_block - 1) / per_block), kThreads>>>(
      static_cast<__nv_bfloat16*>(c), static_cast<const __nv_bfloat16*>(a), static_cast<const __nv_bfloat16*>(b),
      std::int64_t(n));
}

}  // namespace reference
