// llm.c's layernorm_forward_kernel3 (train_gpt2.cu) as it is written there, cooperative groups,
// streaming cache hints and all, launched as llm.c launches it (512 threads, a warp per row).
// The benchmark's twin of samples/layernorm.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

namespace reference {

__global__ void layernorm_forward_kernel3(float* __restrict__ out, float* __restrict__ mean, float* __restrict__ rstd,
                                          const float* __restrict__ inp, const float* __restrict__ weight,
                                          const float* __restrict__ bias, int N, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (idx >= N) return;

  // the row of input that this group of threads is responsible for
  const float* x = inp + idx * C;

  // mean
  float sum = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) sum += x[i];
  sum = cg::reduce(warp, sum, cg::plus<float>{});
  float m = sum / C;
  if (warp.thread_rank() == 0 && mean != nullptr) __stcs(mean + idx, m);

  // rstd
  sum = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) {
    float diff = x[i] - m;
    sum += diff * diff;
  }
  sum = cg::reduce(warp, sum, cg::plus<float>{});
  float s = rsqrtf(sum / C + 1e-5f);
  if (warp.thread_rank() == 0 && rstd != nullptr) __stcs(rstd + idx, s);

  // final normalization and scaling by weight/bias
  float* o = out + idx * C;
  for (int c = warp.thread_rank(); c < C; c += warp.size()) {
    float n = s * (__ldcs(x + c) - m);
    __stcs(o + c, n * weight[c] + bias[c]);
  }
}

void launch_layernorm(float* out, float* mean, float* rstd, const float* inp, const float* weight, const float* bias,
                      int N, int C) {
  const int block_size = 512;
  const int grid_size = (N * 32 + block_size - 1) / block_size;
  layernorm_forward_kernel3<<<grid_size, block_size>>>(out, mean, rstd, inp, weight, bias, N, C);
}

}  // namespace reference
