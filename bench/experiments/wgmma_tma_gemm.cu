// Experiment, not part of the build: the Hopper GEMM of wgmma_tma_gemm.cuh measured in one run
// against cuBLAS and the mma.sync anchor (mma_sync_gemm.cuh's 128×256×64 tiling).
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -lcublas -lcuda \
//        bench/experiments/wgmma_tma_gemm.cu -o wgmma_gemm && ./wgmma_gemm
#include "mma_sync_gemm.cuh"
#include "wgmma_tma_gemm.cuh"

int main() {
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return std::fprintf(stderr, "cublasCreate failed\n"), 1;
  int cublas_version = 0;
  cublasGetVersion(handle, &cublas_version);
  std::printf("%s, %d SMs, cuBLAS %d\n", prop.name, prop.multiProcessorCount, cublas_version);

  const std::vector<Variant> variants = {
      make_variant<Tile128x256x64>("mma.sync 128x256x64s3"),
      wgmma::make_variant<wgmma::Tiling<128, 256, 4>>("wgmma 128x256s4"),
      wgmma::make_variant<wgmma::Tiling<128, 128, 6>>("wgmma 128x128s6"),
  };
  for (const Variant& v : variants)
    std::printf("variant %-22s  %d threads  %d B shared  blocks/SM %d\n", v.name, v.threads, v.smem_bytes,
                v.fast_blocks);

  bool all = true;
  const int small_sizes[][3] = {{256, 384, 512}, {200, 136, 72}, {77, 264, 40}, {129, 8, 8}};
  for (const auto& s : small_sizes) all = check_against_cpu(handle, variants, s[0], s[1], s[2]) && all;
  measure_copy();
  all = measure(handle, variants, 4096, 4096, 4096, nullptr) && all;
  all = measure(handle, variants, 8192, 8192, 8192, nullptr) && all;
  all = measure(handle, variants, 4000, 4000, 4000, nullptr) && all;
  all = measure(handle, variants, 8191, 8184, 8184, nullptr) && all;
  std::printf("%s\n", all ? "ALL PASS" : "SOME FAILED");
  cublasDestroy(handle);
  return all ? 0 : 1;
}
