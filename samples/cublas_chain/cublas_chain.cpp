// cublas_chain.cpp — Carbide kernels and cuBLAS on the same buffers and the same stream:
//   1. Carbide rounds the fp32 inputs A and B to bf16, into buffers Carbide owns;
//   2. cublasGemmEx multiplies them on tensor cores (f32 accumulation) into C, memory the CUDA
//      runtime allocated (cudaMalloc), as another library or a framework would hand it over;
//   3. Carbide adds a bias per column and applies ReLU to C in place, through a borrowed matrix.
// The three are queued on one stream with no wait between them; only the copy back waits.
#include <carbide/carbide.hpp>
#include <carbide/tile/types.hpp>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "../common/sample_check.hpp"

namespace ct = carbide::tile;

namespace chain {

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(256)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void round_to_bf16(carbide::span<const float> in, carbide::disjoint_span<ct::bf16> out) {
  auto idx = carbide::thread::index_1d();
  if (ct::bf16* rounded = out.get_mut(idx)) *rounded = ct::bf16(in[idx.get()]);
}

// One thread per element of c, which has bias.size() columns.
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(256)
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1))
void bias_relu(carbide::span<const float> bias, carbide::disjoint_span2d<float> c) {
  auto at = carbide::thread::index_2d();
  if (float* element = c.get_mut(at)) {
    const float shifted = *element + bias[at.col()];
    *element = shifted > 0.f ? shifted : 0.f;
  }
}

}  // namespace chain

namespace {

void check_cuda(cudaError_t status, const char* call) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(call) + " failed: " + cudaGetErrorName(status));
}

void check_cublas(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed: " + cublasGetStatusName(status));
}

// Device memory from the CUDA runtime, freed with cudaFree: the foreign allocation Carbide borrows.
using RuntimeAllocation = std::unique_ptr<void, decltype(&cudaFree)>;

RuntimeAllocation runtime_allocate(std::size_t bytes) {
  void* raw = nullptr;
  check_cuda(cudaMalloc(&raw, bytes), "cudaMalloc");
  return RuntimeAllocation(raw, &cudaFree);
}

using CublasHandle = std::unique_ptr<cublasContext, decltype(&cublasDestroy)>;

CublasHandle cublas_create() {
  cublasHandle_t handle = nullptr;
  check_cublas(cublasCreate(&handle), "cublasCreate");
  return CublasHandle(handle, &cublasDestroy);
}

carbide::LaunchConfig one_thread_per_element(std::size_t n) {
  return carbide::LaunchConfig1D(carbide::div_ceil(n, std::size_t(256)), 256);
}

// relu(A·B + bias) for every `row_step`-th row, in float64 from the bf16-rounded inputs.
std::vector<double> reference(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& bias,
                              std::size_t m, std::size_t n, std::size_t k, std::size_t row_step) {
  auto bf16 = [](float v) { return double(float(ct::bf16(v))); };
  std::vector<double> b_rounded(b.size());
  for (std::size_t i = 0; i < b.size(); ++i) b_rounded[i] = bf16(b[i]);
  std::vector<double> expected;
  for (std::size_t i = 0; i < m; i += row_step) {
    std::vector<double> row(n, 0.0);
    for (std::size_t p = 0; p < k; ++p) {
      const double a_ip = bf16(a[i * k + p]);
      for (std::size_t j = 0; j < n; ++j) row[j] += a_ip * b_rounded[p * n + j];
    }
    for (std::size_t j = 0; j < n; ++j) expected.push_back(std::fmax(row[j] + bias[j], 0.0));
  }
  return expected;
}

}  // namespace

int main(int argc, char** argv) try {
  auto ctx = carbide::Context::create(0);  // cuBLAS needs a GPU
  const bool small = sample::small_run(argc, argv, ctx);
  auto stream = ctx.create_stream();
  const std::size_t m = small ? 200 : 4000, n = small ? 136 : 3000, k = small ? 72 : 2000;
  const std::vector<float> a = sample::random_floats(m * k), b = sample::random_floats(k * n),
                           bias = sample::random_floats(n);

  const auto module = chain::load(ctx);
  const auto a32 = carbide::DeviceBuffer<float>::from_host(stream, a);
  const auto b32 = carbide::DeviceBuffer<float>::from_host(stream, b);
  const auto bias_dev = carbide::DeviceBuffer<float>::from_host(stream, bias);
  auto a16 = carbide::DeviceBuffer<ct::bf16>::uninitialized(stream, m * k);
  auto b16 = carbide::DeviceBuffer<ct::bf16>::uninitialized(stream, k * n);
  // Declared before the buffer that borrows it, so it is freed after.
  const RuntimeAllocation c_memory = runtime_allocate(m * n * sizeof(float));
  auto c = carbide::DeviceBuffer2D<float>::borrow(ctx, static_cast<float*>(c_memory.get()), m, n);

  // 1. Carbide, on `stream`.
  module.round_to_bf16(stream, module.prepare_round_to_bf16(one_thread_per_element(m * k)), a32, a16);
  module.round_to_bf16(stream, module.prepare_round_to_bf16(one_thread_per_element(k * n)), b32, b16);

  // 2. cuBLAS, on the same stream, reading Carbide's buffers through their device pointers.
  // cuBLAS is column-major: row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ, the same bytes.
  const CublasHandle cublas = cublas_create();
  check_cublas(cublasSetStream(cublas.get(), static_cast<cudaStream_t>(stream.native_handle())), "cublasSetStream");
  const float one = 1.f, zero = 0.f;
  check_cublas(cublasGemmEx(cublas.get(), CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(m), int(k), &one,
                            b16.device_data(), CUDA_R_16BF, int(n), a16.device_data(), CUDA_R_16BF, int(k), &zero,
                            c.device_data(), CUDA_R_32F, int(c.pitch()), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx");

  // 3. Carbide again, in place on cuBLAS's output, ordered after the GEMM by the stream.
  module.bias_relu(stream,
                   module.prepare_bias_relu(carbide::LaunchConfig2D(
                       {carbide::div_ceil(n, std::size_t(32)), carbide::div_ceil(m, std::size_t(8)), 1}, {32, 8, 1})),
                   bias_dev, c);

  const std::vector<float> result = c.to_host_vec(stream);  // waits for all three
  // Rows spread over C so the float64 reference stays quick at full size.
  const std::size_t row_step = small ? 1 : 37;
  std::vector<float> checked;
  for (std::size_t i = 0; i < m; i += row_step)
    checked.insert(checked.end(), result.begin() + i * n, result.begin() + (i + 1) * n);
  const std::string what = "Carbide bf16 rounding, cublasGemmEx, Carbide bias + ReLU on one stream, " +
                           std::to_string(m) + " x " + std::to_string(n) + " x " + std::to_string(k);
  // Products of bf16 values are exact in f32; what is left is f32 accumulation in cuBLAS's order
  // and rounding, which on tensor cores need not be to nearest. A lost bias or ReLU, or inputs
  // rounded other than to nearest even, is 1e-3 or more.
  return sample::verdict(what.c_str(), sample::relative_error(checked, reference(a, b, bias, m, n, k, row_step)),
                         2e-4);
} catch (const std::exception& error) {  // no GPU, a cuBLAS failure, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
