// Where does samples/layernorm lose to llm.c's layernorm_forward_kernel3 (0.925 of it on the
// H100, bench/results/2026-12-07-h100-warp-rows.md)? The kernel body below is the sample's as the
// translator emits it (.carry/gen/layernorm/layernorm.carbide.cu, 2026-12-07), then the same with
// each suspect removed by hand; the twin is timed with and without its streaming cache hints
// (__ldcs, __stcs), and twice, so that the spread between two runs of one kernel is on the table.
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -I runtime/include bench/experiments/layernorm_warp_rows.cu -o /tmp/l && /tmp/l
#define CARBIDE_CHECKED 1
#include <carbide/carbide.hpp>

#include "../../samples/layernorm/layernorm_reference.cu"

#include "interleaved_timing.cuh"

#include <random>
#include <vector>


using carbide::detail::in_range;

// The two statistics, as emitted (their reads proven in range).
struct RowStatistics {
  float m, s;
};
__device__ __forceinline__ RowStatistics statistics(const carbide::span<const float>& x, unsigned lane, unsigned C) {
  float sum = 0.0f;
  for (unsigned i = lane; i < x.size(); i += 32) sum += x[in_range(i)];
  sum = carbide::warp::reduce_add(sum);
  const float m = sum / C;
  sum = 0.0f;
  for (unsigned i = lane; i < x.size(); i += 32) {
    const float diff = x[in_range(i)] - m;
    sum += diff * diff;
  }
  sum = carbide::warp::reduce_add(sum);
  return {m, rsqrtf(sum / C + 1e-5f)};
}

// 0: as emitted: the row's element k at column index(k), its reads of x, weight and bias checked.
// 1: the same reads unchecked (as if proven), the row's store still checked against count().
// 2: a column loop `c = lane; c < C; c += 32`, reads unchecked, the store through the row's k.
// 3: as 1, with streaming hints: __ldcs on x, __stcs on the output and the scalars.
template <int Variant>
__global__ void __launch_bounds__(512) layernorm_emitted(carbide::disjoint_span<float> out, carbide::disjoint_span<float> mean,
                                                         carbide::disjoint_span<float> rstd, carbide::span<const float> inp,
                                                         carbide::span<const float> weight, carbide::span<const float> bias,
                                                         unsigned N, unsigned C) {
  carbide::detail::assume_block_shape<512, 1, 1>();
  auto warp = carbide::thread::warp_index_1d();
  const std::size_t idx = warp.get();
  if (idx >= N) return;
  const unsigned lane = carbide::thread::lane().get();
  const carbide::span<const float> x = inp.subspan(idx * C, C);
  const RowStatistics row = statistics(x, lane, C);
  if (float* e = mean.get_mut_warp_leader(warp)) Variant == 3 ? __stcs(e, row.m) : void(*e = row.m);
  if (float* e = rstd.get_mut_warp_leader(warp)) Variant == 3 ? __stcs(e, row.s) : void(*e = row.s);
  auto o = out.get_mut_warp_row(warp, C);
  if constexpr (Variant == 0) {
    for (unsigned k = 0; k < o.count(); ++k) {
      const std::size_t c = o.index(k);
      o[k] = row.s * (x[c] - row.m) * weight[c] + bias[c];
    }
  } else if constexpr (Variant == 1 || Variant == 3) {
    for (unsigned k = 0; k < o.count(); ++k) {
      const std::size_t c = o.index(k);
      const float xc = Variant == 3 ? __ldcs(x.data() + c) : x[in_range(c)];
      const float v = row.s * (xc - row.m) * weight[in_range(c)] + bias[in_range(c)];
      if constexpr (Variant == 3) __stcs(&o[k], v);
      else o[k] = v;
    }
  } else {
    unsigned k = 0;
    for (unsigned c = lane; c < x.size(); c += 32, ++k)
      o[k] = row.s * (x[in_range(c)] - row.m) * weight[in_range(c)] + bias[in_range(c)];
  }
}

// The twin without its cache hints: plain loads and stores, otherwise as llm.c writes it.
__global__ void layernorm_twin_plain(float* __restrict__ out, float* __restrict__ mean, float* __restrict__ rstd,
                                     const float* __restrict__ inp, const float* __restrict__ weight,
                                     const float* __restrict__ bias, int N, int C) {
  namespace cg = cooperative_groups;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (idx >= N) return;
  const float* x = inp + idx * C;
  float sum = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) sum += x[i];
  sum = cg::reduce(warp, sum, cg::plus<float>{});
  float m = sum / C;
  if (warp.thread_rank() == 0) mean[idx] = m;
  sum = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) {
    float diff = x[i] - m;
    sum += diff * diff;
  }
  sum = cg::reduce(warp, sum, cg::plus<float>{});
  float s = rsqrtf(sum / C + 1e-5f);
  if (warp.thread_rank() == 0) rstd[idx] = s;
  float* o = out + idx * C;
  for (int c = warp.thread_rank(); c < C; c += warp.size()) o[c] = s * (x[c] - m) * weight[c] + bias[c];
}

int main() {
  const unsigned N = 32 * 1024, C = 768, blocks = N / 16;
  const std::size_t n = std::size_t(N) * C;
  std::mt19937 generator(7);
  std::uniform_real_distribution<float> values(-1.f, 1.f);
  std::vector<float> host(n + 2 * C);
  for (float& v : host) v = values(generator);
  float *in, *weight, *bias, *out, *mean, *rstd;
  CHECK_CUDA(cudaMalloc(&in, n * 4));
  CHECK_CUDA(cudaMalloc(&weight, C * 4));
  CHECK_CUDA(cudaMalloc(&bias, C * 4));
  CHECK_CUDA(cudaMalloc(&out, n * 4));
  CHECK_CUDA(cudaMalloc(&mean, N * 4));
  CHECK_CUDA(cudaMalloc(&rstd, N * 4));
  CHECK_CUDA(cudaMemcpy(in, host.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(weight, host.data() + n, C * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(bias, host.data() + n + C, C * 4, cudaMemcpyHostToDevice));
  using carbide::detail::view_access;
  const auto in_view = view_access::make<carbide::span<const float>>(in, n);
  const auto weight_view = view_access::make<carbide::span<const float>>(weight, C);
  const auto bias_view = view_access::make<carbide::span<const float>>(bias, C);
  const auto out_view = view_access::make<carbide::disjoint_span<float>>(out, n);
  const auto mean_view = view_access::make<carbide::disjoint_span<float>>(mean, N);
  const auto rstd_view = view_access::make<carbide::disjoint_span<float>>(rstd, N);
  auto emitted = [&](auto kernel) {
    return [=] { kernel<<<blocks, 512>>>(out_view, mean_view, rstd_view, in_view, weight_view, bias_view, N, C); };
  };

  std::vector<TimedKernel> kernels = {
      {"twin (llm.c, __ldcs/__stcs)", [&] { reference::launch_layernorm(out, mean, rstd, in, weight, bias, N, C); }, {}},
      {"twin without cache hints", [&] { layernorm_twin_plain<<<(N * 32 + 511) / 512, 512>>>(out, mean, rstd, in, weight, bias, N, C); }, {}},
      {"emitted", emitted(layernorm_emitted<0>), {}},
      {"emitted, reads unchecked", emitted(layernorm_emitted<1>), {}},
      {"emitted, column loop, reads unchecked", emitted(layernorm_emitted<2>), {}},
      {"emitted, reads unchecked, cache hints", emitted(layernorm_emitted<3>), {}},
      {"twin again", [&] { reference::launch_layernorm(out, mean, rstd, in, weight, bias, N, C); }, {}},
  };

  // Every version writes the twin's output, bit for bit.
  std::vector<float> expected(n), got(n);
  kernels[0].launch();
  CHECK_CUDA(cudaMemcpy(expected.data(), out, n * 4, cudaMemcpyDeviceToHost));
  bool all_pass = true;
  for (TimedKernel& k : kernels) {
    CHECK_CUDA(cudaMemset(out, 0, n * 4));
    k.launch();
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost));
    const bool pass = got == expected;
    all_pass = all_pass && pass;
    std::printf("check %-40s %s\n", k.name.c_str(), pass ? "PASS" : "FAIL");
  }

  time_interleaved(kernels, "layernorm 32768 × 768");
  return all_pass ? 0 : 1;
}
