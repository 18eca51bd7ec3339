// bitonic.cpp — a bitonic sort of 2^24 floats in place in global memory, one launch per merge
// step, as the global merge of NVIDIA's sortingNetworks sample (bitonicMergeGlobal) does it:
// at step (size, stride) thread i compares the pair pos = 2i − (i & (stride − 1)) and
// pos + stride and puts it in the order of its half of the current bitonic sequence. Each
// thread owns its pair through get_mut_pair, so the in-place update needs no atomics and no
// unsafe block: pairs at one stride never share an element, and `carbide check` proves the
// stride is one value for the whole launch.
#include <carbide/carbide.hpp>

#include "../common/sample_check.hpp"

#include <algorithm>

namespace bitonic {

constexpr unsigned kBlock = 256;

// One merge step over the whole array: ascending where bit `size/2` of the pair's index is 0.
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(kBlock)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void merge_step(carbide::disjoint_span<float> keys, unsigned size, unsigned stride) {
  auto idx = carbide::thread::index_1d();
  if (auto pair = keys.get_mut_pair(idx, stride)) {
    const bool ascending = (idx.get() & (size / 2)) == 0;
    const float a = pair.first(), b = pair.second();
    const bool swap = (a > b) == ascending;
    pair.first() = swap ? b : a;
    pair.second() = swap ? a : b;
  }
}

}  // namespace bitonic

namespace {

// Sorts `keys` (a power-of-two count) ascending: log2(n)·(log2(n) + 1)/2 launches of n/2 threads.
void bitonic_sort(bitonic::Module& module, const carbide::Stream& stream,
                  carbide::DeviceBuffer<float>& keys) {
  const std::size_t n = keys.size();
  const auto prepared = module.prepare_merge_step(
      carbide::LaunchConfig1D(carbide::div_ceil(n / 2, std::size_t(bitonic::kBlock)), bitonic::kBlock));
  for (std::size_t size = 2; size <= n; size *= 2)
    for (std::size_t stride = size / 2; stride > 0; stride /= 2)
      module.merge_step(stream, prepared, keys, unsigned(size), unsigned(stride));
}

}  // namespace

int main(int argc, char** argv) try {
  auto ctx = carbide::Context::create_default();  // GPU 0, else the CPU
  const bool small = sample::small_run(argc, argv, ctx);
  auto stream = ctx.default_stream();
  const std::size_t n = std::size_t(1) << (small ? 16 : 24);
  const std::vector<float> keys = sample::random_floats(n);
  auto keys_dev = carbide::DeviceBuffer<float>::from_host(stream, keys);
  auto module = bitonic::load(ctx);
  bitonic_sort(module, stream, keys_dev);

  std::vector<double> expected(keys.begin(), keys.end());
  std::sort(expected.begin(), expected.end());
  return sample::verdict("bitonic sort in place", sample::relative_error(keys_dev.to_host_vec(stream), expected),
                         0.0);
} catch (const std::exception& error) {  // no GPU, a rejected launch, ...: a message, not an abort
  return carbide::report_error(argv[0], error);
}
