// Does the block-shape assumption at the top of an entry cost the histogram its last 2%?
// (bench/results/2026-12-04-h200-session11.md: 0.976 of the twin since entries assume the
// contract's block shape, 1.000 before.) The kernel body below is samples/histogram's as the
// translator emits it (.carry/gen/histogram/histogram.carbide.cu, 2026-12-04), once with the
// entry's assume_block_shape<256, 1, 1>() and once without; the twin is the sample's, timed twice
// so that the spread between two runs of one kernel is on the table too.
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -I runtime/include bench/experiments/histogram_assume.cu -o /tmp/h && /tmp/h
#define CARBIDE_CHECKED 1
#include <carbide/device.hpp>

#include "../../samples/histogram/histogram_reference.cu"

#include "interleaved_timing.cuh"

#include <random>
#include <vector>


namespace histogram {
constexpr unsigned kBins = 256;
__device__ __forceinline__ void histogram(carbide::span<const std::uint32_t> words, carbide::atomic_span<unsigned> bins) {
  auto lid = carbide::thread::local_index();
  auto counts = carbide::block::shared_at<unsigned, kBins, 0>();
  counts[::carbide::detail::in_range(lid)] = 0;
  carbide::block::sync();
  for (auto&& w : carbide::thread::grid_stride(words)) {
    const std::uint32_t packed = words[::carbide::detail::in_range(w.get())];
    for (unsigned byte = 0; byte < 4; ++byte) counts.fetch_add(::carbide::detail::in_range((packed >> (8 * byte)) & 0xffu), 1u);
  }
  carbide::block::sync();
  if (const unsigned mine = counts[lid]) bins.fetch_add(lid.get(), mine);
}
}  // namespace histogram

extern "C" __global__ void __launch_bounds__(256) histogram_assumed(carbide::span<const uint32_t> words, carbide::atomic_span<unsigned int> bins) {
  ::carbide::detail::assume_block_shape<256, 1, 1>();
  ::histogram::histogram(words, bins);
}
extern "C" __global__ void __launch_bounds__(256) histogram_plain(carbide::span<const uint32_t> words, carbide::atomic_span<unsigned int> bins) {
  ::histogram::histogram(words, bins);
}

int main() {
  const std::size_t words = std::size_t(1) << 26;
  const unsigned blocks = 132 * 8;
  std::vector<std::uint32_t> data(words);
  std::mt19937 generator(7);
  for (std::uint32_t& word : data) word = std::uint32_t(generator());
  std::uint32_t* in = nullptr;
  unsigned* bins = nullptr;
  CHECK_CUDA(cudaMalloc(&in, words * 4));
  CHECK_CUDA(cudaMalloc(&bins, 256 * 4));
  CHECK_CUDA(cudaMemcpy(in, data.data(), words * 4, cudaMemcpyHostToDevice));
  // What the runtime's stubs hand a launch.
  const auto in_view = carbide::detail::view_access::make<carbide::span<const std::uint32_t>>(in, words);
  const auto bins_view = carbide::detail::view_access::make<carbide::atomic_span<unsigned>>(bins, 256);

  std::vector<TimedKernel> kernels = {
      {"twin", [&] { reference::launch_histogram(in, words, bins, blocks); }, {}},
      {"emitted, assume_block_shape", [&] { histogram_assumed<<<blocks, 256>>>(in_view, bins_view); }, {}},
      {"emitted, no assumption", [&] { histogram_plain<<<blocks, 256>>>(in_view, bins_view); }, {}},
      {"twin again", [&] { reference::launch_histogram(in, words, bins, blocks); }, {}},
  };

  // Every version counts right: one launch each into zeroed bins against the host's count.
  std::vector<unsigned> expected(256, 0);
  for (std::uint32_t word : data)
    for (int byte = 0; byte < 4; ++byte) ++expected[(word >> (8 * byte)) & 0xffu];
  bool all_pass = true;
  for (TimedKernel& k : kernels) {
    CHECK_CUDA(cudaMemset(bins, 0, 256 * 4));
    k.launch();
    CHECK_CUDA(cudaGetLastError());
    std::vector<unsigned> got(256);
    CHECK_CUDA(cudaMemcpy(got.data(), bins, 256 * 4, cudaMemcpyDeviceToHost));
    const bool pass = got == expected;
    all_pass = all_pass && pass;
    std::printf("check %-30s %s\n", k.name.c_str(), pass ? "PASS" : "FAIL");
  }

  time_interleaved(kernels, "histogram 2^28 bytes");
  std::printf("%s\n", all_pass ? "ALL PASS" : "SOME FAILED");
  return all_pass ? 0 : 1;
}
