// reduction.cpp — the sum of 2^28 floats: a grid-stride partial sum per thread over 16-byte
// chunks, a warp sum, the warps' partials through shared memory, one atomic add per block.
#include <carbide/carbide.hpp>

#include "../common/sample_check.hpp"

#include <cmath>

namespace reduction {

constexpr unsigned kBlock = 512;
constexpr unsigned kWarps = kBlock / 32;

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kBlock)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void sum(carbide::span<const float> in, carbide::atomic_span<float> total) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto lane = carbide::thread::lane();
  // Chunks of four floats, the grid striding over them; two independent sums keep two loads in
  // flight per thread.
  const std::size_t chunks = (in.size() + 3) / 4;
  const std::size_t stride = std::size_t(carbide::thread::grid_dim().x) * kBlock;
  float partial = 0.f, other = 0.f;
  std::size_t c = idx.get();
  for (; c + stride < chunks; c += 2 * stride) {
    const carbide::vec<float, 4> first = in.chunk<4>(c), second = in.chunk<4>(c + stride);
    partial += (first[0] + first[1]) + (first[2] + first[3]);
    other += (second[0] + second[1]) + (second[2] + second[3]);
  }
  if (c < chunks) {
    const carbide::vec<float, 4> last = in.chunk<4>(c);  // a partial last chunk reads zeros
    partial += (last[0] + last[1]) + (last[2] + last[3]);
  }
  partial += other;
  partial = carbide::warp::reduce_add(partial);

  auto warp_sums = carbide::block::shared<float, kWarps>();
  if (lane.get() == 0) warp_sums[lid.get() / 32] = partial;
  carbide::block::sync();
  if (lid.get() / 32 == 0) {
    float block_sum = carbide::warp::reduce_add(lane.get() < kWarps ? warp_sums[lane.get()] : 0.f);
    if (lane.get() == 0) total.fetch_add(0, block_sum);
  }
}

}  // namespace reduction

int main(int argc, char** argv) try {
  auto ctx = carbide::Context::create_default();  // GPU 0, else the CPU
  const bool small = sample::small_run(argc, argv, ctx);
  auto stream = ctx.default_stream();
  const std::size_t n = (std::size_t(1) << (small ? 16 : 28)) + 7;
  const std::vector<float> values = sample::random_floats(n);
  double reference = 0, magnitude = 0;
  for (float v : values) {
    reference += v;
    magnitude += std::fabs(v);
  }
  auto in = carbide::DeviceBuffer<float>::from_host(stream, values);
  auto total = carbide::DeviceBuffer<float>::zeroed(stream, 1);
  auto module = reduction::load(ctx);
  // Four blocks per multiprocessor's worth of threads is plenty for a read-once stream.
  auto prepared = module.prepare_sum(carbide::LaunchConfig1D(132 * 4, reduction::kBlock));
  module.sum(stream, prepared, in, total);
  // Against the sum of magnitudes: the sum itself may be near zero.
  const double relative = std::fabs(total.to_host_vec(stream)[0] - reference) / magnitude;
  return sample::verdict("sum with a partial last warp", relative, 1e-5);
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
