#include "segments.hpp"

namespace carbide::cpu {

Segments::Segments() : chunks_(new std::atomic<std::uint64_t*>[kChunks]) {
  for (std::uint64_t i = 0; i < kChunks; ++i) chunks_[i].store(nullptr, std::memory_order_relaxed);
}

Segments::~Segments() {
  for (std::uint64_t i = 0; i < kChunks; ++i) delete[] chunks_[i].load(std::memory_order_relaxed);
}

void Segments::begin(std::uint64_t base) {
  base_ = std::uint32_t(base) & kMask;
  next_.store(0, std::memory_order_relaxed);
}

bool Segments::open(std::uint64_t block, std::uint32_t* segment) {
  const std::uint64_t offset = next_.fetch_add(1, std::memory_order_relaxed);
  if (offset >= kPerLaunch) return false;
  std::atomic<std::uint64_t*>& slot = chunks_[offset >> kChunkBits];
  std::uint64_t* chunk = slot.load(std::memory_order_acquire);
  if (chunk == nullptr) {
    // Chunks are kept for later launches; two workers may race to make one, and one wins.
    auto fresh = std::make_unique<std::uint64_t[]>(std::uint64_t(1) << kChunkBits);
    if (slot.compare_exchange_strong(chunk, fresh.get(), std::memory_order_acq_rel)) chunk = fresh.release();
  }
  chunk[offset & ((std::uint64_t(1) << kChunkBits) - 1)] = block;
  *segment = std::uint32_t((base_ + offset) & kMask);
  return true;
}

std::uint64_t Segments::block_of(std::uint32_t segment) const {
  const std::uint64_t offset = (segment - base_) & kMask;
  return chunks_[offset >> kChunkBits].load(std::memory_order_acquire)[offset & ((std::uint64_t(1) << kChunkBits) - 1)];
}

}  // namespace carbide::cpu
