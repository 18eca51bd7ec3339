// histogram_privatized.cpp — port of "Programming Massively Parallel Processors" (4th ed.),
// chapter 9, `histo_private_kernel` with the shared-memory privatization and the interleaved
// (grid-stride) input loop: letters counted in bins of four, block-stride loops that clear the
// private bins and merge them into the global histogram with atomics.
//
// Changed from the textbook, vocabulary only:
// - `__shared__ unsigned int histo_s[NUM_BINS]` → `block::shared<unsigned, NUM_BINS>()`;
// - `atomicAdd(&histo_s[b], 1)` → `histo_s.fetch_add(b, 1u)`, `atomicAdd(&histo[bin], v)` →
//   `histo.fetch_add(bin, v)` on an atomic_span;
// - `char* data` → `span<const char>`; the block (256) fixed by the contract.
//
// Accepted by `carbide check` with no finding (session 14, as first ported):
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

constexpr unsigned NUM_BINS = 7;
CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(256)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void histo_private_kernel(carbide::span<const char> data, unsigned length, carbide::atomic_span<unsigned> histo) {
  auto histo_s = carbide::block::shared<unsigned, NUM_BINS>();
  for (unsigned bin = carbide::thread::thread_idx().x; bin < NUM_BINS; bin += carbide::thread::block_dim().x) histo_s[bin] = 0u;
  carbide::block::sync();
  unsigned i = carbide::thread::block_idx().x * carbide::thread::block_dim().x + carbide::thread::thread_idx().x;
  for (; i < length; i += carbide::thread::block_dim().x * carbide::thread::grid_dim().x) {
    int alphabet_position = data[i] - 'a';
    if (alphabet_position >= 0 && alphabet_position < 26) histo_s.fetch_add(alphabet_position / 4, 1u);
  }
  carbide::block::sync();
  for (unsigned bin = carbide::thread::thread_idx().x; bin < NUM_BINS; bin += carbide::thread::block_dim().x) {
    unsigned binValue = histo_s[bin];
    if (binValue > 0) histo.fetch_add(bin, binValue);
  }
}

}  // namespace kernels
