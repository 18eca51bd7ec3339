// Segments: a block's stretch of work between two barriers (its phase), numbered across the
// engine's life so that a shadow cell, which keeps the low kBits of a number, tells the current
// launch's accesses from older ones without being cleared between launches. Each launch keeps
// which block each of its segments belongs to.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace carbide::cpu {

class Segments {
 public:
  static constexpr unsigned kBits = 30;
  static constexpr std::uint32_t kMask = (std::uint32_t(1) << kBits) - 1;
  // The most one launch numbers; past that it stops recording. The engine clears every shadow
  // cell once this many have gone by since the last clear, so that an old number never reads as
  // one of the current launch's (see shadow.hpp).
  static constexpr std::uint64_t kPerLaunch = std::uint64_t(1) << (kBits - 2);

  Segments();
  ~Segments();
  Segments(const Segments&) = delete;
  Segments& operator=(const Segments&) = delete;

  // Starts a launch whose first segment is `base`.
  void begin(std::uint64_t base);
  std::uint64_t used() const { return next_.load(std::memory_order_relaxed); }

  // A new segment of block `block`; false once the launch has numbered kPerLaunch.
  bool open(std::uint64_t block, std::uint32_t* segment);
  // Whether a cell's segment was numbered by the current launch.
  bool current(std::uint32_t segment) const { return ((segment - base_) & kMask) < kPerLaunch; }
  std::uint64_t block_of(std::uint32_t segment) const;

 private:
  static constexpr unsigned kChunkBits = 16;
  static constexpr std::uint64_t kChunks = kPerLaunch >> kChunkBits;
  std::uint32_t base_ = 0;
  std::atomic<std::uint64_t> next_{0};
  std::unique_ptr<std::atomic<std::uint64_t*>[]> chunks_;  // the blocks of segments, 2^kChunkBits a chunk
};

}  // namespace carbide::cpu
