// sgemm.cpp — C = A · B in single precision, row-major, with shared-memory and register tiling:
// each block of 16 × 16 threads computes a 128 × 128 tile of C, each thread an 8 × 8 piece of
// it in registers, stepping through K eight columns at a time with A's and B's slabs staged in
// shared memory by 16-byte loads. The next slab's loads are issued before the current slab is
// multiplied, so their latency hides behind the arithmetic; two blocks fit on each SM.
#include <carbide/carbide.hpp>

#include "../common/sample_check.hpp"

#include <cstdint>
#include <limits>
#include <stdexcept>

namespace sgemm {

constexpr unsigned kTileM = 128, kTileN = 128, kTileK = 8;
constexpr int kThreadM = 8, kThreadN = 8;
constexpr unsigned kThreadsX = kTileN / kThreadN, kThreadsY = kTileM / kThreadM;  // 16 × 16

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
  // Each slab: thread l brings four floats of A (row l / 2, half l % 2 of the slab's eight
  // columns) and four of B (row l / 32, columns 4·(l % 32) …), one 16-byte load each.
  const unsigned l = lid.get();
  const std::size_t a_first = (std::size_t(block.y) * kTileM + l / 2) * k_size / 4 + l % 2;
  const std::size_t b_first = std::size_t(l / 32) * n_size / 4 + std::size_t(block.x) * (kTileN / 4) + l % 32;
  const std::size_t b_step = kTileK * n_size / 4;  // one slab further down B, in float4s
  auto a_slab = carbide::block::shared<carbide::vec<float, 4>, kTileM * kTileK / 4>();  // [m][k / 4]
  auto b_slab = carbide::block::shared<carbide::vec<float, 4>, kTileK * kTileN / 4>();  // [k][n / 4]

  float sum[kThreadM][kThreadN] = {};
  carbide::vec<float, 4> a_next = a.chunk<4>(a_first), b_next = b.chunk<4>(b_first);
  for (std::size_t slab = 0; slab < k_size / kTileK; ++slab) {
    a_slab[lid] = a_next;
    b_slab[lid] = b_next;
    carbide::block::sync();
    if (slab + 1 < k_size / kTileK) {
      a_next = a.chunk<4>(a_first + (slab + 1) * (kTileK / 4));
      b_next = b.chunk<4>(b_first + (slab + 1) * b_step);
    }
    CARBIDE_UNROLL
    for (unsigned k = 0; k < kTileK; ++k) {
      float a_column[kThreadM];
      for (int i = 0; i < kThreadM; ++i) a_column[i] = a_slab[(ty * kThreadM + i) * 2 + k / 4][k % 4];
      const carbide::vec<float, 4> b_left = b_slab[k * (kTileN / 4) + tx * 2];
      const carbide::vec<float, 4> b_right = b_slab[k * (kTileN / 4) + tx * 2 + 1];
      for (int i = 0; i < kThreadM; ++i)
        for (int j = 0; j < 4; ++j) {
          sum[i][j] += a_column[i] * b_left[j];
          sum[i][j + 4] += a_column[i] * b_right[j];
        }
    }
    carbide::block::sync();
  }
  if (auto mine = c.get_mut_tile<kThreadM, kThreadN>(own)) {
    for (int i = 0; i < kThreadM; ++i) {
      carbide::vec<float, kThreadN> row;
      for (int j = 0; j < kThreadN; ++j) row[j] = sum[i][j];
      mine.store_row(i, row);
    }
  }
}

}  // namespace sgemm

int main(int argc, char** argv) {
  const bool small = sample::small_run(argc, argv);
  auto ctx = carbide::Context::create(0);
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
}
