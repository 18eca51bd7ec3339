#include "shadow.hpp"

#include <carbide/errors.hpp>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

namespace carbide::cpu {

namespace {

// A record, from bit 0: segment (30), read-modify-write (1), atomic (1), state (2), thread (10),
// site (20).
constexpr std::uint64_t kReadModifyWrite = std::uint64_t(1) << 30;
constexpr std::uint64_t kAtomic = std::uint64_t(1) << 31;
constexpr unsigned kStateShift = 32, kThreadShift = 34, kSiteShift = 44;
static_assert(Segments::kBits == 30, "the record's layout keeps 30 bits of a segment");

enum class State : unsigned { Empty, One, SeveralThreads, SeveralBlocks };

struct Record {
  std::uint32_t segment;
  bool read_modify_write, atomic;
  State state;
  unsigned thread, site;
};

Record decode(std::uint64_t word) {
  return {std::uint32_t(word) & Segments::kMask, (word & kReadModifyWrite) != 0, (word & kAtomic) != 0,
          State((word >> kStateShift) & 3), unsigned(word >> kThreadShift) & 1023u,
          unsigned(word >> kSiteShift)};
}

std::uint64_t encode(const Record& r) {
  return std::uint64_t(r.segment) | (r.read_modify_write ? kReadModifyWrite : 0) | (r.atomic ? kAtomic : 0) |
         std::uint64_t(r.state) << kStateShift | std::uint64_t(r.thread) << kThreadShift |
         std::uint64_t(r.site) << kSiteShift;
}

// How a record's accesses stand to the accessing thread.
enum class Relation { None, Mine, SamePhase, EarlierPhase, OtherBlock };

Relation relation(const Record& r, const Accessor& me, const Segments& segments, bool shared_memory) {
  if (r.state == State::Empty || !segments.current(r.segment)) return Relation::None;
  if (r.state == State::SeveralBlocks) return Relation::OtherBlock;
  if (r.segment == me.segment)
    return r.state == State::One && r.thread == me.thread ? Relation::Mine : Relation::SamePhase;
  // Shared memory is the block's own: another segment is an earlier phase, or a block that used
  // this worker's shared memory before.
  if (shared_memory) return Relation::None;
  return segments.block_of(r.segment) == me.block ? Relation::EarlierPhase : Relation::OtherBlock;
}

bool writes(Use use) { return use == Use::Write || use == Use::ReadWrite || use == Use::AtomicWrite; }
bool atomic(Use use) { return use == Use::AtomicRead || use == Use::AtomicWrite; }

bool races(Relation relation, bool remembered_writes, bool remembered_atomic, Use use) {
  return (relation == Relation::SamePhase || relation == Relation::OtherBlock) && (remembered_writes || writes(use)) &&
         !(remembered_atomic && atomic(use));
}

// The record after `use` by `me`, which did not race with it.
Record next(Record r, Relation relation, const Accessor& me, Use use) {
  switch (relation) {
    case Relation::None:
    case Relation::EarlierPhase:
      return {me.segment, use == Use::ReadWrite, atomic(use), State::One, me.thread, me.site};
    case Relation::Mine:
      break;
    case Relation::SamePhase:
      if (r.state == State::One) r.state = State::SeveralThreads;
      break;
    case Relation::OtherBlock:
      r.state = State::SeveralBlocks;
      break;
  }
  r.atomic = r.atomic && atomic(use);
  r.read_modify_write = r.read_modify_write || use == Use::ReadWrite;
  return r;
}

Remembered remembered(const Record& r, bool write_record, const Accessor& me, const Segments& segments,
                      bool shared_memory) {
  const Use use = write_record ? (r.atomic ? Use::AtomicWrite : r.read_modify_write ? Use::ReadWrite : Use::Write)
                               : (r.atomic ? Use::AtomicRead : Use::Read);
  const std::uint64_t block = shared_memory ? me.block : segments.block_of(r.segment);
  return {use, r.thread, block, r.site, r.state != State::One};
}

std::uint64_t load(std::uint64_t& word, bool concurrent) {
  return concurrent ? std::atomic_ref<std::uint64_t>(word).load() : word;
}

bool replace(std::uint64_t& word, std::uint64_t expected, std::uint64_t desired, bool concurrent) {
  if (!concurrent) {
    word = desired;
    return true;
  }
  return std::atomic_ref<std::uint64_t>(word).compare_exchange_strong(expected, desired);
}

}  // namespace

void ShadowCells::FreeWords::operator()(std::uint64_t* words) const { std::free(words); }

unsigned granule_shift_for(std::size_t element_bytes) {
  unsigned shift = 0;
  while (shift < 3 && element_bytes % (std::size_t(2) << shift) == 0) ++shift;
  return shift;
}

ShadowCells::ShadowCells(std::uintptr_t begin, std::size_t bytes, unsigned granule_shift)
    : begin_(begin),
      end_(begin + bytes),
      shift_(granule_shift),
      granules_((bytes + (std::size_t(1) << granule_shift) - 1) >> granule_shift),
      // calloc: large shadows come as untouched zero pages, paid for only where a launch records.
      words_(static_cast<std::uint64_t*>(std::calloc(granules_ * 2 + 2, sizeof(std::uint64_t)))) {
  if (words_ == nullptr)
    throw Error("CARBIDE_CPU_CHECKS: no memory for the race check's shadow of " + std::to_string(bytes) +
                " bytes; run with CARBIDE_CPU_CHECKS=off");
}

void ShadowCells::clear() { std::memset(words_.get(), 0, granules_ * 2 * sizeof(std::uint64_t)); }

std::optional<Remembered> ShadowCells::record(std::uintptr_t address, std::size_t bytes, Use use,
                                              const Accessor& me, const Segments& segments, bool concurrent) {
  const bool shared_memory = !concurrent;
  const std::uintptr_t first = address < begin_ ? begin_ : address;
  const std::uintptr_t last = address + bytes > end_ ? end_ : address + bytes;
  const std::size_t own = writes(use) ? 0 : 1;  // word 0 of a granule: the write; word 1: the read
  for (std::size_t granule = (first - begin_) >> shift_; granule < granules_ && (begin_ + (granule << shift_)) < last;
       ++granule) {
    std::uint64_t& own_word = words_[granule * 2 + own];
    // The own record first, then the other: of two workers racing on one granule, one writing
    // and one reading, at least one then sees the other's record.
    for (;;) {
      const std::uint64_t old = load(own_word, concurrent);
      const Record r = decode(old);
      const Relation rel = relation(r, me, segments, shared_memory);
      if (own == 0 && races(rel, true, r.atomic, use)) return remembered(r, true, me, segments, shared_memory);
      const std::uint64_t updated = encode(next(r, rel, me, use));
      if (updated == old || replace(own_word, old, updated, concurrent)) break;
    }
    const Record other = decode(load(words_[granule * 2 + (1 - own)], concurrent));
    const Relation rel = relation(other, me, segments, shared_memory);
    if (races(rel, own == 1, other.atomic, use)) return remembered(other, own == 1, me, segments, shared_memory);
  }
  return std::nullopt;
}

}  // namespace carbide::cpu
