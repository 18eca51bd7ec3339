// layernorm.cpp — llm.c's layer norm forward (`layernorm_forward_kernel3` of train_gpt2.cu) as it
// is written there: one warp per row of a (B·T) × C activation, its lanes striding the row by 32
// for the mean, the variance and the normalized output, lane 0 writing the row's mean and
// reciprocal standard deviation. Only CUDA's spellings changed:
// - `blockIdx.x * warp.meta_group_size() + warp.meta_group_rank()` → thread::warp_index_1d();
// - `cg::reduce(warp, sum, cg::plus<float>{})` → warp::reduce_add(sum);
// - `if (warp.thread_rank() == 0) __stcs(mean + idx, m)` → mean.get_mut_warp_leader(warp);
// - `o[c] = …` for c = lane, lane + 32, … → out.get_mut_warp_row(warp, C), element k at column
//   index(k); `const float* x = inp + idx * C` → inp.subspan(idx * C, C);
// - `__ldcs(x + c)` → `x.load_streaming(c)`, `__stcs(o + c, v)` → `o.store_streaming(k, v)`
//   (streaming cache hints); `__stcs(mean + idx, m)` → a plain store of the row's scalar.
#include <carbide/carbide.hpp>

#include "../common/sample_check.hpp"

#include <cmath>
#include <limits>

namespace layernorm {

constexpr unsigned kBlock = 512;  // llm.c's block_size: 16 warps, 16 rows a block

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void layernorm_forward(carbide::disjoint_span<float> out, carbide::disjoint_span<float> mean,
                       carbide::disjoint_span<float> rstd, carbide::span<const float> inp,
                       carbide::span<const float> weight, carbide::span<const float> bias, unsigned N, unsigned C) {
  auto warp = carbide::thread::warp_index_1d();
  const std::size_t idx = warp.get();
  if (idx >= N) return;
  const unsigned lane = carbide::thread::lane().get();

  // the row of input that this group of threads is responsible for
  const carbide::span<const float> x = inp.subspan(idx * C, C);

  // mean
  float sum = 0.0f;
  for (unsigned i = lane; i < x.size(); i += 32) sum += x[i];
  sum = carbide::warp::reduce_add(sum);
  const float m = sum / C;
  if (float* e = mean.get_mut_warp_leader(warp)) *e = m;

  // rstd
  sum = 0.0f;
  for (unsigned i = lane; i < x.size(); i += 32) {
    const float diff = x[i] - m;
    sum += diff * diff;
  }
  sum = carbide::warp::reduce_add(sum);
  const float s = rsqrtf(sum / C + 1e-5f);
  if (float* e = rstd.get_mut_warp_leader(warp)) *e = s;

  // final normalization and scaling by weight/bias
  auto o = out.get_mut_warp_row(warp, C);
  for (unsigned k = 0; k < o.count(); ++k) {
    const std::size_t c = o.index(k);
    const float n = s * (x.load_streaming(c) - m);
    o.store_streaming(k, n * weight[c] + bias[c]);
  }
}

}  // namespace layernorm

int main(int argc, char** argv) try {
  auto ctx = carbide::Context::create_default();  // GPU 0, else the CPU
  const bool small = sample::small_run(argc, argv, ctx);
  auto stream = ctx.default_stream();
  // GPT-2 small's channels; B · T = 32 · 1024 rows (70 on the CPU: a partial last block).
  const unsigned rows = small ? 70 : 32 * 1024, cols = 768;
  const std::vector<float> in = sample::random_floats(std::size_t(rows) * cols, -4.f, 4.f);
  const std::vector<float> weight = sample::random_floats(cols, 0.5f, 1.5f), bias = sample::random_floats(cols);
  auto in_dev = carbide::DeviceBuffer<float>::from_host(stream, in);
  auto weight_dev = carbide::DeviceBuffer<float>::from_host(stream, weight);
  auto bias_dev = carbide::DeviceBuffer<float>::from_host(stream, bias);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto out_dev = carbide::DeviceBuffer<float>::from_host(stream, std::vector<float>(in.size(), nan));
  auto mean_dev = carbide::DeviceBuffer<float>::from_host(stream, std::vector<float>(rows, nan));
  auto rstd_dev = carbide::DeviceBuffer<float>::from_host(stream, std::vector<float>(rows, nan));
  auto module = layernorm::load(ctx);
  const unsigned warps_per_block = layernorm::kBlock / 32;
  auto prepared = module.prepare_layernorm_forward(
      carbide::LaunchConfig1D(carbide::div_ceil(rows, warps_per_block), layernorm::kBlock));
  module.layernorm_forward(stream, prepared, out_dev, mean_dev, rstd_dev, in_dev, weight_dev, bias_dev, rows, cols);

  // The reference in float64: the normalized rows, then each row's mean and rstd after them.
  std::vector<double> expected(in.size() + 2 * std::size_t(rows));
  for (unsigned r = 0; r < rows; ++r) {
    const float* x = &in[std::size_t(r) * cols];
    double m = 0, v = 0;
    for (unsigned c = 0; c < cols; ++c) m += x[c];
    m /= cols;
    for (unsigned c = 0; c < cols; ++c) v += (x[c] - m) * (x[c] - m);
    const double s = 1 / std::sqrt(v / cols + 1e-5);
    for (unsigned c = 0; c < cols; ++c) expected[std::size_t(r) * cols + c] = s * (x[c] - m) * weight[c] + bias[c];
    expected[in.size() + r] = m;
    expected[in.size() + rows + r] = s;
  }
  std::vector<float> result = out_dev.to_host_vec(stream);
  for (const auto& scalars : {mean_dev.to_host_vec(stream), rstd_dev.to_host_vec(stream)})
    result.insert(result.end(), scalars.begin(), scalars.end());
  return sample::verdict("layer norm of 768-float rows, a warp per row", sample::relative_error(result, expected), 1e-5);
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
