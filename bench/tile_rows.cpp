#include "tile_rows.hpp"

#include "attention_unfused.carbide.hpp"
#include "tile_add.carbide.hpp"
#include "tile_attention.carbide.hpp"
#include "tile_gemm.carbide.hpp"
#include "tile_layernorm.carbide.hpp"
#include "tile_softmax.carbide.hpp"
#include "twins.hpp"

#include <carbide/tile/shape.hpp>

#include <cmath>

namespace bench {
namespace {

namespace ct = carbide::tile;

template <class T>
std::vector<T> random_values(std::size_t n, std::mt19937& generator) {
  std::vector<T> values;
  for (float v : random_floats(n, generator)) values.push_back(T(v));
  return values;
}

template <class T>
std::vector<float> as_floats(const std::vector<T>& values) {
  return std::vector<float>(values.begin(), values.end());
}

template <class T, class P>
T* device_pointer(const P& handle) {
  return reinterpret_cast<T*>(handle.device_ptr());
}

// The output tensor stays partitioned while both versions write it; reading it back gives the
// tensor back and partitions it again.
template <class T, class Shape>
std::function<std::vector<float>()> read_back(const carbide::Stream& stream, carbide::Partition<T, Shape>& part) {
  return [&stream, &part] {
    auto tensor = std::move(part).unpartition();
    std::vector<float> values = as_floats(tensor.to_host_vec(stream));
    part = std::move(tensor).partition(Shape{});
    return values;
  };
}

template <class T>
Row tile_add_row(const carbide::Stream& stream, const tile_add::Module& module, std::mt19937& generator,
                 const char* name) {
  const std::size_t n = std::size_t(1) << 26;
  const auto a = carbide::Tensor<T>::from_host(stream, random_values<T>(n, generator), {n});
  const auto b = carbide::Tensor<T>::from_host(stream, random_values<T>(n, generator), {n});
  auto part = carbide::Tensor<T>::zeroed(stream, {n}).partition(ct::shape<4096>{});
  auto twin = [&] {
    if constexpr (sizeof(T) == 4)
      reference::launch_tile_add_f32(device_pointer<float>(part), device_pointer<const float>(a),
                                     device_pointer<const float>(b), n);
    else
      reference::launch_tile_add_bf16(device_pointer<void>(part), device_pointer<const void>(a),
                                      device_pointer<const void>(b), n);
  };
  return measure(name, 3.0 * n * sizeof(T), [&] { module.add<T>(stream, part, a, b); }, twin,
                 read_back(stream, part));
}

Row tile_softmax_row(const carbide::Context& context, const carbide::Stream& stream, std::mt19937& generator) {
  const std::size_t rows = 16384, cols = 4096;
  const auto x = carbide::Tensor<float>::from_host(stream, random_floats(rows * cols, generator), {rows, cols});
  auto part = carbide::Tensor<float>::zeroed(stream, {rows, cols}).partition(ct::shape<1, 4096>{});
  const auto module = tile_softmax::load(context);
  return measure("tile softmax 16384 × 4096 (twin: softmax's)", 2.0 * rows * cols * sizeof(float),
                 [&] { module.softmax_rows<4096>(stream, part, x); },
                 [&] { reference::launch_softmax(device_pointer<const float>(x), device_pointer<float>(part), unsigned(rows)); },
                 read_back(stream, part));
}

Row tile_layernorm_row(const carbide::Context& context, const carbide::Stream& stream, std::mt19937& generator) {
  const std::size_t rows = 16384, cols = 4096;
  const float eps = 1e-5f;
  const auto x = carbide::Tensor<ct::bf16>::from_host(stream, random_values<ct::bf16>(rows * cols, generator), {rows, cols});
  const auto gamma = carbide::Tensor<ct::bf16>::from_host(stream, random_values<ct::bf16>(cols, generator), {1, cols});
  const auto beta = carbide::Tensor<ct::bf16>::from_host(stream, random_values<ct::bf16>(cols, generator), {1, cols});
  auto part = carbide::Tensor<ct::bf16>::zeroed(stream, {rows, cols}).partition(ct::shape<1, 4096>{});
  const auto module = tile_layernorm::load(context);
  return measure("tile layernorm bf16 16384 × 4096", 2.0 * rows * cols * sizeof(ct::bf16),
                 [&] { module.layernorm<4096>(stream, part, x, gamma, beta, eps); },
                 [&] {
                   reference::launch_tile_layernorm(device_pointer<void>(part), device_pointer<const void>(x),
                                                    device_pointer<const void>(gamma), device_pointer<const void>(beta),
                                                    eps, unsigned(rows));
                 },
                 read_back(stream, part));
}

GemmRow tile_gemm_row(const carbide::Context& context, const carbide::Stream& stream, cublasHandle_t cublas,
                      std::mt19937& generator, std::size_t size) {
  const auto a = carbide::Tensor<ct::bf16>::from_host(stream, random_values<ct::bf16>(size * size, generator), {size, size});
  const auto b = carbide::Tensor<ct::bf16>::from_host(stream, random_values<ct::bf16>(size * size, generator), {size, size});
  auto part = carbide::Tensor<ct::bf16>::zeroed(stream, {size, size}).partition(ct::shape<128, 256>{});
  auto c_cublas = carbide::Tensor<ct::bf16>::zeroed(stream, {size, size});
  const auto module = tile_gemm::load(context);
  const float one = 1.f, zero = 0.f;
  const int n = int(size);
  // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: cuBLAS gets B first.
  auto run_cublas = [&] {
    cublasGemmEx(cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, device_pointer<const void>(b), CUDA_R_16BF, n,
                 device_pointer<const void>(a), CUDA_R_16BF, n, &zero, device_pointer<void>(c_cublas), CUDA_R_16BF, n,
                 CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  };
  auto c_anchor = carbide::Tensor<ct::bf16>::zeroed(stream, {size, size});
  auto run_anchor = [&] {
    reference::launch_wgmma_gemm(device_pointer<const void>(a), device_pointer<const void>(b),
                                 device_pointer<void>(c_anchor), n, n, n);
  };
  GemmRow row{"tile gemm bf16 " + std::to_string(size) + "³ (twin: hand wgmma)", 2.0 * size * size * size, 0, 0, 0, 0};
  module.gemm<128, 256, 64>(stream, part, a, b);
  run_cublas();
  const std::vector<float> carbide_result = read_back(stream, part)();
  const std::vector<double> ms =
      median_ms_each({[&] { module.gemm<128, 256, 64>(stream, part, a, b); }, run_anchor, run_cublas}, 3, 11, 2);
  row.carbide_ms = ms[0], row.twin_ms = ms[1], row.cublas_ms = ms[2];
  row.carbide_vs_cublas = relative_difference(carbide_result, as_floats(c_cublas.to_host_vec(stream)));
  return row;
}

// Forward attention over [heads, n, D] in one tile kernel, against scores, row softmax and the
// weighted values as three tile kernels (S and P in global memory between them).
template <int D, bool Causal>
FusedRow tile_attention_row(const carbide::Context& context, const carbide::Stream& stream, std::mt19937& generator) {
  constexpr std::size_t kHeads = 16, kN = 4096;
  const auto tensor = [&] {
    return carbide::Tensor<ct::bf16>::from_host(stream, random_values<ct::bf16>(kHeads * kN * D, generator), {kHeads, kN, D});
  };
  const auto q = tensor(), k = tensor(), v = tensor();
  const float scale = 1.f / std::sqrt(float(D));
  const auto fused = tile_attention::load(context);
  const auto unfused = attention_unfused::load(context);
  auto o = carbide::Tensor<ct::bf16>::zeroed(stream, {kHeads, kN, D}).partition(ct::shape<1, 64, D>{});
  auto s = carbide::Tensor<float>::zeroed(stream, {kHeads, kN, kN}).partition(ct::shape<1, 64, 64>{});
  auto p = carbide::Tensor<ct::bf16>::zeroed(stream, {kHeads, kN, kN}).partition(ct::shape<1, 1, kN>{});
  auto o_unfused = carbide::Tensor<ct::bf16>::zeroed(stream, {kHeads, kN, D}).partition(ct::shape<1, 128, D>{});
  auto run_fused = [&] { fused.attention<64, 64, D, Causal>(stream, o, q, k, v, scale); };
  auto run_unfused = [&] {
    unfused.scores<64, 64, D, Causal>(stream, s, q, k, scale);
    auto scores = std::move(s).unpartition();
    unfused.softmax_rows<kN>(stream, p, scores);
    s = std::move(scores).partition(ct::shape<1, 64, 64>{});
    auto weights = std::move(p).unpartition();
    unfused.weighted_values<128, D, 64>(stream, o_unfused, weights, v);
    p = std::move(weights).partition(ct::shape<1, 1, kN>{});
  };
  run_fused();
  run_unfused();
  const std::vector<float> from_fused = read_back(stream, o)(), from_unfused = read_back(stream, o_unfused)();
  const std::vector<double> ms = median_ms_each({run_fused, run_unfused}, 2, 7, 1);
  const double flops = 4.0 * kHeads * kN * kN * D * (Causal ? 0.5 : 1.0);
  return {std::string("tile attention bf16 16 heads × 4096 × ") + std::to_string(D) + (Causal ? ", causal" : ""),
          flops, ms[0], ms[1], relative_difference(from_fused, from_unfused)};
}

}  // namespace

void add_tile_rows(const carbide::Context& context, const carbide::Stream& stream, cublasHandle_t cublas,
                   std::mt19937& generator, std::vector<Row>& rows, std::vector<GemmRow>& gemms,
                   std::vector<FusedRow>& fused) {
  const auto add = tile_add::load(context);
  rows.push_back(tile_add_row<float>(stream, add, generator, "tile add f32 2^26"));
  rows.push_back(tile_add_row<ct::bf16>(stream, add, generator, "tile add bf16 2^26"));
  rows.push_back(tile_softmax_row(context, stream, generator));
  rows.push_back(tile_layernorm_row(context, stream, generator));
  for (std::size_t size : {4096, 8192}) gemms.push_back(tile_gemm_row(context, stream, cublas, generator, size));
  fused.push_back(tile_attention_row<64, false>(context, stream, generator));
  fused.push_back(tile_attention_row<64, true>(context, stream, generator));
  fused.push_back(tile_attention_row<128, false>(context, stream, generator));
  fused.push_back(tile_attention_row<128, true>(context, stream, generator));
}

}  // namespace bench
