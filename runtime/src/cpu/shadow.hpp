// The race check's memory (DESIGN §11, "Run-time checks"): for every granule of a buffer, or of a
// block's shared memory, two records: the last write (or atomic read-modify-write) and the last
// read. Each record is one 64-bit word, so that a worker updates it with one compare-and-swap
// while another worker's block touches the same granule, and it names its segment (block and
// phase, see segments.hpp), so nothing is cleared between launches or between phases.
//
// Two threads race when they touch one granule in one segment (one block, between two barriers)
// or from two blocks of one launch, at least one of them writing and not both atomically. A
// record that several threads of a segment, or several blocks, share says so, and any later
// access that races with one of them is reported.
#pragma once

#include "segments.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

namespace carbide::cpu {

enum class Use : unsigned char { Read, Write, ReadWrite, AtomicRead, AtomicWrite };

// The thread making an access, as a record keeps it.
struct Accessor {
  std::uint32_t segment;  // its block's current segment
  std::uint64_t block;    // flat block index
  unsigned thread;        // local index in the block
  unsigned site;          // SiteTable number
};

// An earlier access a new one races with, as its record kept it.
struct Remembered {
  Use use;
  unsigned thread;
  std::uint64_t block;
  unsigned site;
  bool several;  // the record stood for several threads (or blocks); `thread` is one of them
};

// Two records per granule of [begin, begin + bytes); a granule is 2^granule_shift bytes, no
// larger than the elements the memory holds, so that neighbouring elements written by
// neighbouring threads never share one.
class ShadowCells {
 public:
  ShadowCells(std::uintptr_t begin, std::size_t bytes, unsigned granule_shift);
  std::uintptr_t begin() const { return begin_; }
  std::uintptr_t end() const { return end_; }
  unsigned granule_shift() const { return shift_; }
  void clear();

  // Records `use` of [address, address + bytes) by `me`, within this memory; returns the first
  // earlier access it races with. `concurrent`: several workers reach these cells (a buffer);
  // otherwise only the worker running the block does (its shared memory), and a record of
  // another segment is an earlier phase or a block that ran before on this worker, never a race.
  std::optional<Remembered> record(std::uintptr_t address, std::size_t bytes, Use use, const Accessor& me,
                                   const Segments& segments, bool concurrent);

 private:
  struct FreeWords {
    void operator()(std::uint64_t* words) const;
  };
  std::uintptr_t begin_, end_;
  unsigned shift_;
  std::size_t granules_;
  std::unique_ptr<std::uint64_t[], FreeWords> words_;  // zero: empty
};

// The largest power of two dividing `element_bytes`, up to 8: the granule for such elements.
unsigned granule_shift_for(std::size_t element_bytes);

}  // namespace carbide::cpu
