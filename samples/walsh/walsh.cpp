// walsh.cpp — the fast Walsh-Hadamard transform of 2^23 floats in place, as NVIDIA's
// fastWalshTransform sample computes it: radix-4 stages over the whole array in global memory
// (fwtBatch2Kernel, one launch per stage, each thread owning its four elements through
// get_mut_radix<4>) until the independent pieces are 2^11 long, then one launch that transforms
// each piece in shared memory (fwtBatch1Kernel), each block owning its piece through
// get_mut_block_region. Everything in place, without atomics or unsafe blocks.
#include <carbide/carbide.hpp>

#include "../common/sample_check.hpp"

namespace walsh {

constexpr int kPieceLog2 = 11;                 // fastWalshTransform's ELEMENTARY_LOG2SIZE
constexpr unsigned kPiece = 1u << kPieceLog2;  // floats a block transforms in shared memory
constexpr unsigned kPieceThreads = kPiece / 4;
constexpr unsigned kStageThreads = 256;        // fastWalshTransform's THREAD_N

// The radix-4 Walsh butterfly on four values in place, as fastWalshTransform writes it.
void butterfly4(float& d0, float& d1, float& d2, float& d3) {
  const float a = d0 + d2, b = d0 - d2, c = d1 + d3, d = d1 - d3;
  d0 = a + c;
  d1 = a - c;
  d2 = b + d;
  d3 = b - d;
}

// One radix-4 stage at `stride`: the four elements i0, i0 + s, i0 + 2s, i0 + 3s of each thread.
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kStageThreads)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kStageThreads, 1, 1))
void radix4_stage(carbide::disjoint_span<float> data, unsigned stride) {
  auto idx = carbide::thread::index_1d();
  if (auto four = data.get_mut_radix<4>(idx, stride)) butterfly4(four[0], four[1], four[2], four[3]);
}

// Each block transforms its own 2^11 floats in shared memory: radix-4 stages, then one radix-2
// stage (11 is odd). Thread t loads and stores the piece's elements t, t + 512, … .
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kPieceThreads)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kPieceThreads, 1, 1))
void transform_pieces(carbide::disjoint_span<float> data) {
  auto lid = carbide::thread::local_index();
  auto s_data = carbide::block::shared<float, kPiece>();
  const unsigned tid = lid.get();
  // The grid has one block per piece and the data whole pieces (the host's precondition), so
  // every thread owns four elements of its piece; a checked build traps on anything else.
  // The four loads are issued together (constant trip count, unrolled): one at a time, each block
  // would wait on every load in turn (bench/results/2026-12-03-walsh-piece-kernel.md).
  auto mine = data.get_mut_block_region(lid, kPiece);
#pragma unroll
  for (unsigned k = 0; k < kPiece / kPieceThreads; ++k) s_data[tid + k * kPieceThreads] = mine[k];

  for (unsigned stride = kPiece >> 2; stride > 0; stride >>= 2) {
    const unsigned lo = tid & (stride - 1);
    const unsigned i0 = ((tid - lo) << 2) + lo;
    const unsigned i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;
    carbide::block::sync();
    float d0 = s_data[i0], d1 = s_data[i1], d2 = s_data[i2], d3 = s_data[i3];
    butterfly4(d0, d1, d2, d3);
    s_data[i0] = d0;
    s_data[i1] = d1;
    s_data[i2] = d2;
    s_data[i3] = d3;
  }
  carbide::block::sync();
  for (unsigned pos = tid; pos < kPiece / 2; pos += kPieceThreads) {
    const unsigned i0 = pos << 1, i1 = i0 + 1;
    const float d0 = s_data[i0], d1 = s_data[i1];
    s_data[i0] = d0 + d1;
    s_data[i1] = d0 - d1;
  }
  carbide::block::sync();
#pragma unroll
  for (unsigned k = 0; k < kPiece / kPieceThreads; ++k) mine[k] = s_data[tid + k * kPieceThreads];
}

}  // namespace walsh

namespace {

// The transform of `data` (a power-of-two count, at least 2^11) in place.
void walsh_transform(walsh::Module& module, const carbide::Stream& stream, carbide::DeviceBuffer<float>& data) {
  const std::size_t n = data.size();
  const auto stage = module.prepare_radix4_stage(carbide::LaunchConfig1D(n / 4 / walsh::kStageThreads, walsh::kStageThreads));
  for (std::size_t piece = n; piece > walsh::kPiece; piece /= 4)
    module.radix4_stage(stream, stage, data, unsigned(piece / 4));
  module.transform_pieces(
      stream, module.prepare_transform_pieces(carbide::LaunchConfig1D(n / walsh::kPiece, walsh::kPieceThreads)), data);
}

// The float64 transform on the host: log2(n) radix-2 stages.
std::vector<double> reference_transform(const std::vector<float>& values) {
  std::vector<double> h(values.begin(), values.end());
  for (std::size_t stride = 1; stride < h.size(); stride *= 2)
    for (std::size_t i = 0; i < h.size(); ++i)
      if ((i & stride) == 0) {
        const double a = h[i], b = h[i + stride];
        h[i] = a + b;
        h[i + stride] = a - b;
      }
  return h;
}

}  // namespace

int main(int argc, char** argv) try {
  auto ctx = carbide::Context::create_default();  // GPU 0, else the CPU
  const bool small = sample::small_run(argc, argv, ctx);
  auto stream = ctx.default_stream();
  // 2^23 as the sample; --small keeps one radix-4 stage (2^13) and the odd piece size.
  const std::size_t n = std::size_t(1) << (small ? 13 : 23);
  const std::vector<float> values = sample::random_floats(n);
  auto data = carbide::DeviceBuffer<float>::from_host(stream, values);
  auto module = walsh::load(ctx);
  walsh_transform(module, stream, data);
  return sample::verdict("fast Walsh-Hadamard transform in place",
                         sample::relative_error(data.to_host_vec(stream), reference_transform(values)), 1e-5);
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
