// sgemm.cpp — C = A · B in single precision, row-major, with shared-memory and register tiling:
// each block of 16 × 16 threads computes a 128 × 128 tile of C, each thread an 8 × 8 piece of
// it in registers, stepping through K eight columns at a time. Warps 0–3 bring A's slab, one
// row of eight floats per thread, and store it transposed (k-major, rows padded to 132), so
// that a thread reads its eight A values for one k as two 16-byte loads; warps 4–7 bring B's
// slab, eight floats of a row each, and store each half-row 64 columns from the other, so that
// a thread reads its eight B values as two conflict-free 16-byte loads. The next slab's loads are issued before the current one is multiplied, so their latency
// hides behind the arithmetic; two blocks fit on each SM.
#include <carbide/carbide.hpp>

#include "../common/sample_check.hpp"

#include <cstdint>
#include <limits>
#include <stdexcept>

namespace sgemm {

constexpr unsigned kTileM = 128, kTileN = 128, kTileK = 8;
constexpr int kThreadM = 8, kThreadN = 8;
constexpr unsigned kThreadsX = kTileN / kThreadN, kThreadsY = kTileM / kThreadM;  // 16 × 16
constexpr unsigned kSlabPitch = kTileM + 4;  // A's transposed slab: row k at k · 132

// A is M × K, B is K × N, C is M × N; M and N multiples of 128, K of 8 (the host checks).
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kThreadsX * kThreadsY, 2)
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (kThreadsX, kThreadsY, 1))
void sgemm(carbide::span<const float> a, carbide::span<const float> b, std::uint32_t k_size,
           carbide::disjoint_span2d<float> c) {
  auto own = carbide::thread::index_2d();  // its 8 × 8 piece of C: get_mut_tile<8, 8>
  auto lid = carbide::thread::local_index();
  const unsigned tx = carbide::thread::thread_idx().x, ty = carbide::thread::thread_idx().y;
  const carbide::dim3 block = carbide::thread::block_idx();
  const std::size_t n_size = c.cols();
  const unsigned l = lid.get();
  // Thread l < 128 brings row l of A's slab, thread 128 + j row j / 16 of B's slab, columns
  // 8·(j % 16) …: eight floats each, one 32-byte chunk, always whole (the host checks the
  // multiples).
  const bool brings_a = l < kTileM;
  const unsigned j = l % kTileM;
  const carbide::span<const float> source = brings_a ? a : b;
  const std::size_t first = brings_a ? (std::size_t(block.y) * kTileM + j) * k_size / 8
                                     : std::size_t(j / 16) * n_size / 8 + std::size_t(block.x) * (kTileN / 8) + j % 16;
  const std::size_t step = brings_a ? kTileK / 8 : kTileK * n_size / 8;  // one slab on, in chunks
  auto a_slab = carbide::block::shared<float, kTileK * kSlabPitch>();  // [k][m], padded
  auto b_slab = carbide::block::shared<carbide::vec<float, 4>, kTileK * kTileN / 4>();  // [k][n / 4]

  float sum[kThreadM][kThreadN] = {};
  carbide::vec<float, 8> next = source.whole_chunk<8>(first);
  for (std::size_t slab = 0; slab < k_size / kTileK; ++slab) {
    if (l < kTileM) {
      for (unsigned k = 0; k < kTileK; ++k) a_slab[k * kSlabPitch + l] = next[k];
    } else {
      // Thread (tx, ty ≥ 8) brought row ty − 8 of B's slab, columns 8·tx …: the left half goes
      // to float4 tx of the slab row and the right half to float4 16 + tx, so that the reads
      // below, a quarter-warp's eight consecutive float4s, meet in no bank.
      b_slab[(ty - 8) * (kTileN / 4) + tx] = carbide::vec<float, 4>{{next[0], next[1], next[2], next[3]}};
      b_slab[(ty - 8) * (kTileN / 4) + 16 + tx] = carbide::vec<float, 4>{{next[4], next[5], next[6], next[7]}};
    }
    carbide::block::sync();
    if (slab + 1 < k_size / kTileK) next = source.whole_chunk<8>(first + (slab + 1) * step);
    CARBIDE_UNROLL
    for (unsigned k = 0; k < kTileK; ++k) {
      float a_column[kThreadM];
      for (int i = 0; i < kThreadM; ++i) a_column[i] = a_slab[k * kSlabPitch + ty * kThreadM + i];
      const carbide::vec<float, 4> b_left = b_slab[k * (kTileN / 4) + tx];
      const carbide::vec<float, 4> b_right = b_slab[k * (kTileN / 4) + 16 + tx];
      for (int i = 0; i < kThreadM; ++i)
        for (int q = 0; q < 4; ++q) {
          sum[i][q] += a_column[i] * b_left[q];
          sum[i][q + 4] += a_column[i] * b_right[q];
        }
    }
    carbide::block::sync();
  }
  if (auto mine = c.get_mut_tile<kThreadM, kThreadN>(own)) {
    for (int i = 0; i < kThreadM; ++i) {
      carbide::vec<float, kThreadN> row;
      for (int q = 0; q < kThreadN; ++q) row[q] = sum[i][q];
      mine.store_row(i, row);
    }
  }
}

}  // namespace sgemm

int main(int argc, char** argv) try {
  auto ctx = carbide::Context::create_default();  // GPU 0, else the CPU
  const bool small = sample::small_run(argc, argv, ctx);
  auto stream = ctx.default_stream();
  const std::uint32_t m = small ? 256 : 1024, n = small ? 128 : 768, k = small ? 64 : 520;
  if (m % sgemm::kTileM || n % sgemm::kTileN || k % sgemm::kTileK)
    throw std::invalid_argument("sgemm: M and N must be multiples of 128 and K of 8");
  const std::vector<float> a = sample::random_floats(std::size_t(m) * k);
  const std::vector<float> b = sample::random_floats(std::size_t(k) * n);
  auto a_dev = carbide::DeviceBuffer<float>::from_host(stream, a);
  auto b_dev = carbide::DeviceBuffer<float>::from_host(stream, b);
  auto c_dev = carbide::DeviceBuffer2D<float>::from_host(
      stream, std::vector<float>(std::size_t(m) * n, std::numeric_limits<float>::quiet_NaN()), m, n);
  auto module = sgemm::load(ctx);
  auto prepared = module.prepare_sgemm(carbide::LaunchConfig2D(
      {n / sgemm::kTileN, m / sgemm::kTileM, 1}, {sgemm::kThreadsX, sgemm::kThreadsY, 1}));
  module.sgemm(stream, prepared, a_dev, b_dev, k, c_dev);

  std::vector<double> expected(std::size_t(m) * n, 0.0);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t p = 0; p < k; ++p) {
      const double a_ip = a[i * k + p];
      for (std::size_t j = 0; j < n; ++j) expected[i * n + j] += a_ip * b[p * n + j];
    }
  return sample::verdict("sgemm with K not a power of two",
                         sample::relative_error(c_dev.to_host_vec(stream), expected), 1e-5);
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
