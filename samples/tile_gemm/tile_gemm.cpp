// tile_gemm.cpp — C = A · B in bf16 with f32 accumulation on tensor cores, on the Tile path: one
// tile block per 128 × 256 tile of C, the k-loop written as a loop of ct::mma over whole tiles.
// Translated for sm_90a (CMakeLists.txt), the k-loop becomes wgmma fed by TMA: a producer
// warpgroup copies k tiles into a ring of shared-memory stages, two consumer warpgroups multiply
// them; for other targets, a pipelined mma.sync loop (cp.async stages, ldmatrix). M, N and K need
// not be multiples of the tile.
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

#include "../common/sample_check.hpp"

namespace ct = carbide::tile;

namespace tile_gemm {

// One tile block owns one BM × BN tile of c: it cannot write anywhere else.
template <int BM, int BN, int BK>
CARBIDE_TILE_KERNEL
void gemm(ct::out<ct::bf16, ct::shape<BM, BN>> c, ct::in<ct::bf16, 2> a, ct::in<ct::bf16, 2> b) {
  auto [bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<BM, BK>{});
  auto pb = b.partition(ct::shape<BK, BN>{});
  auto acc = ct::zeros<float, ct::shape<BM, BN>>();
  for (int k : ct::irange(pa.tiles(1)))
    acc = ct::mma(pa.load(bm, k), pb.load(k, bn), acc);
  c.store(ct::cast<ct::bf16>(acc));
}

}  // namespace tile_gemm

std::vector<ct::bf16> random_bf16(std::size_t n) {
  std::vector<ct::bf16> values;
  for (float v : sample::random_floats(n)) values.push_back(ct::bf16(v));
  return values;
}

int run(const tile_gemm::Module& module, const carbide::Stream& stream, std::size_t m, std::size_t n, std::size_t k) {
  const std::vector<ct::bf16> a_host = random_bf16(m * k), b_host = random_bf16(k * n);
  const auto a = carbide::Tensor<ct::bf16>::from_host(stream, a_host, {m, k});
  const auto b = carbide::Tensor<ct::bf16>::from_host(stream, b_host, {k, n});
  auto c = carbide::Tensor<ct::bf16>::zeroed(stream, {m, n});
  auto tiles = std::move(c).partition(ct::shape<128, 256>{});
  module.gemm<128, 256, 64>(stream, tiles, a, b);
  c = std::move(tiles).unpartition();
  // Rows spread over the result so the float64 reference stays quick at full size.
  const std::size_t step = m > 512 ? 61 : 1;
  std::vector<double> expected;
  std::vector<float> got;
  const std::vector<ct::bf16> result = c.to_host_vec(stream);
  for (std::size_t i = 0; i < m; i += step)
    for (std::size_t j = 0; j < n; ++j) {
      double sum = 0;
      for (std::size_t p = 0; p < k; ++p) sum += double(float(a_host[i * k + p])) * float(b_host[p * n + j]);
      expected.push_back(sum);
      got.push_back(float(result[i * n + j]));
    }
  const std::string what = "tile gemm (bf16, f32 accumulation), " + std::to_string(m) + " x " + std::to_string(n) +
                           " x " + std::to_string(k);
  // The output is rounded to bf16: 2^-9 relative per element.
  return sample::verdict(what.c_str(), sample::relative_error(got, expected), 4e-3);
}

int main(int argc, char** argv) try {
  auto context = carbide::Context::create_default();  // GPU 0, else the CPU
  const bool small = sample::small_run(argc, argv, context);
  auto stream = context.default_stream();
  const auto module = tile_gemm::load(context);
  return run(module, stream, small ? 256 : 4096, small ? 256 : 4096, small ? 256 : 4096) |
         run(module, stream, small ? 200 : 4000, small ? 136 : 3000, small ? 72 : 2000);
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
