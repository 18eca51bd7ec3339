// The hand-written CUDA twins of the samples (samples/*/<name>_reference.cu), launched on the
// legacy default stream, which Carbide's default stream is too.
#pragma once

#include <cstddef>
#include <cstdint>

namespace reference {
void launch_vecadd(const float* a, const float* b, float* c, std::size_t n);
void launch_saxpy(float a, const float* x, const float* y, float* out, std::size_t n);
void launch_sum(const float* in, std::size_t n, float* total, unsigned blocks);
void launch_histogram(const std::uint32_t* words, std::size_t n, unsigned* bins, unsigned blocks);
void launch_transpose(const float* in, std::uint32_t rows, std::uint32_t cols, float* out);
void launch_transpose_row_order(const float* in, std::uint32_t rows, std::uint32_t cols, float* out);
void launch_stencil(const float* in, std::size_t n, const float* weights, float* out);  // 9 weights
void launch_softmax(const float* in, float* out, unsigned rows);
void launch_layernorm(float* out, float* mean, float* rstd, const float* inp, const float* weight, const float* bias,
                      int N, int C);  // llm.c's layernorm_forward_kernel3, a warp per row
void launch_scan(const float* in, std::size_t n, float* out, float* scratch);
void launch_bitonic_sort(float* keys, std::size_t n);  // n a power of two, at least 512
void launch_walsh(float* data, std::size_t n);  // n = 2^k, k odd and at least 11
void set_convolution_taps(const float* taps);  // 17 taps, to __constant__ memory
void launch_convolution(float* dst, float* buffer, const float* src, int width, int height);
void launch_sgemm(const float* a, const float* b, float* c, std::uint32_t m, std::uint32_t n, std::uint32_t k);
// The tile samples' twins; bf16 data as untyped pointers (__nv_bfloat16, bit for bit ct::bf16).
void launch_tile_add_f32(float* c, const float* a, const float* b, std::size_t n);
void launch_tile_add_bf16(void* c, const void* a, const void* b, std::size_t n);
// The hand-written wgmma + TMA GEMM (row-major bf16, f32 accumulation; K % 8 == 0, N % 8 == 0);
// sm_90a only.
void launch_wgmma_gemm(const void* a, const void* b, void* c, int m, int n, int k);
void launch_tile_layernorm(void* y, const void* x, const void* gamma, const void* beta, float eps, unsigned rows);  // 4096 columns
}  // namespace reference
