// Global → shared staging for tiles: asynchronous 16-byte copies (cp.async, sm_80+) with zero-fill
// for the edges, their commit/wait groups, and the XOR-swizzled shared-memory tile layout that
// keeps ldmatrix and the copies free of bank conflicts.
//
// PTX ISA sections: "Data Movement and Conversion Instructions: cp.async", with
// cp.async.commit_group and cp.async.wait_group beside it. The layout is plain constexpr index
// arithmetic, host-visible, so that a planner can check its properties (static_asserts below).
#pragma once

#include <carbide/tile/types.hpp>

#include <cstddef>
#include <cstdint>

namespace carbide::tile {

// A kRows × kCols tile of T in shared memory, rows of 16-byte chunks (kCols·sizeof(T) = 16·kChunks
// bytes), chunk positions XOR-swizzled within each 128-byte line.
//
// Why: shared memory serves 128 bytes a cycle as 8 groups of four banks, one 16-byte chunk each.
// ldmatrix reads one 16-byte chunk from each of 8 rows in a phase, and the same logical chunk of 8
// rows of a plain row-major tile whose rows are 128 bytes apart hits one group 8 times (8-way
// conflict). Swizzled, the 8 rows' chunks land in 8 distinct groups. cp.async stores whole rows
// of chunks, which a permutation within a row leaves conflict-free.
//   rows >= 128 bytes (kChunks a multiple of 8): physical chunk = chunk ^ (row % 8)
//   rows of 64 bytes (two a line):                physical chunk = chunk ^ ((row / 2) % 4)
//   rows of 32 bytes (four a line):               physical chunk = chunk ^ ((row / 4) % 2)
// In all three the pattern repeats every 8 rows, the fact the two "steps" below rest on.
template <int kRows_, int kCols_, class T>
struct swizzled_tile {
  static constexpr int kRows = kRows_, kCols = kCols_;
  static constexpr int kElemsPerChunk = 16 / int(sizeof(T));
  static constexpr int kChunks = kCols / kElemsPerChunk;  // 16-byte chunks a row
  static constexpr int kRowBytes = kChunks * 16;
  static constexpr int kBytes = kRows * kRowBytes;
  static_assert(kCols % kElemsPerChunk == 0, "rows are whole 16-byte chunks");
  static_assert(kChunks == 2 || kChunks == 4 || kChunks % 8 == 0, "rows of 32, 64 or k·128 bytes");
  static_assert(kRows % 8 == 0, "whole swizzle periods of 8 rows");

  static constexpr int kRowsPerLine = kChunks >= 8 ? 1 : 8 / kChunks;
  static constexpr int kXorChunks = kChunks >= 8 ? 8 : kChunks;  // how many low chunk bits are permuted

  static CARBIDE_TILE_CONSTEXPR int physical_chunk(int row, int chunk) {
    return chunk ^ ((row / kRowsPerLine) % kXorChunks);
  }
  // Byte offset of the chunk holding columns [chunk·kElemsPerChunk, +kElemsPerChunk) of `row`.
  static CARBIDE_TILE_CONSTEXPR int offset(int row, int chunk) { return row * kRowBytes + physical_chunk(row, chunk) * 16; }
  // Byte offset of element (row, col); col a multiple of kElemsPerChunk for 16-byte accesses.
  static CARBIDE_TILE_CONSTEXPR int element_offset(int row, int col) {
    return offset(row, col / kElemsPerChunk) + (col % kElemsPerChunk) * int(sizeof(T));
  }

  // Steps that keep one precomputed offset a thread and avoid recomputing the swizzle in a loop:
  //   offset(row + 8j, chunk)  == offset(row, chunk) + row_step(8j)        (j any integer)
  //   offset(row, chunk ^ d)   == offset(row, chunk) ^ chunk_xor(d)         (0 <= d < kXorChunks)
  // chunk ^ d equals chunk + d whenever chunk's low bits under d are clear (e.g. chunk in {0, 1},
  // d even), which is how a k step of a fragment address becomes one XOR.
  static CARBIDE_TILE_CONSTEXPR int row_step(int rows) { return rows * kRowBytes; }
  static CARBIDE_TILE_CONSTEXPR int chunk_xor(int d) { return d * 16; }

  // The property the layout exists for: every ldmatrix phase (8 consecutive rows from an 8-aligned
  // row, one logical chunk) touches 8 distinct 16-byte bank groups. Checked exhaustively.
  static CARBIDE_TILE_CONSTEXPR bool ldmatrix_conflict_free() {
    for (int row0 = 0; row0 < kRows; row0 += 8)
      for (int chunk = 0; chunk < kChunks; ++chunk) {
        unsigned groups = 0;
        for (int r = 0; r < 8; ++r) groups |= 1u << ((offset(row0 + r, chunk) / 16) % 8);
        if (groups != 0xffu) return false;
      }
    return true;
  }
  static CARBIDE_TILE_CONSTEXPR bool steps_hold() {
    for (int row = 0; row < kRows; ++row)
      for (int chunk = 0; chunk < kChunks; ++chunk) {
        if (row + 8 < kRows && offset(row + 8, chunk) != offset(row, chunk) + row_step(8)) return false;
        for (int d = 0; d < kXorChunks; ++d)
          if ((chunk ^ d) < kChunks && offset(row, chunk ^ d) != (offset(row, chunk) ^ chunk_xor(d))) return false;
      }
    return true;
  }
  static_assert(ldmatrix_conflict_free() && steps_hold());
};

// How kThreads threads split a swizzled tile into 16-byte copies: thread t copies chunk t % kChunks
// of rows t / kChunks + p·kRowsPerPass for the passes p. Because a pass moves whole groups of 8
// rows, a thread's swizzle term is the same in every pass and its shared offset only adds
// row_step(kRowsPerPass) a pass: one offset and one running source pointer serve the whole tile.
template <class Tile, int kThreads>
struct tile_copy_plan {
  static constexpr int kRowsPerPass = kThreads / Tile::kChunks;
  static constexpr int kPasses = Tile::kRows / kRowsPerPass;
  static_assert(kThreads % Tile::kChunks == 0 && kPasses * kRowsPerPass == Tile::kRows, "every thread, every pass");
  static_assert(kRowsPerPass % 8 == 0, "swizzle invariant across passes");
  static CARBIDE_TILE_CONSTEXPR int row(int thread) { return thread / Tile::kChunks; }
  static CARBIDE_TILE_CONSTEXPR int chunk(int thread) { return thread % Tile::kChunks; }
};

namespace sm80 {

#if defined(__CUDACC__)

// cp.async.cg.shared.global.L2::128B [dst], [src], 16, src_bytes:
// copies src_bytes (0..16) from global memory and zero-fills the rest of the 16 shared bytes;
// src_bytes 0 reads nothing, which is the masked edge load (the tile reads as zero-padded).
// .cg: cache in L2 only (the data is reused through shared memory, not L1). L2::128B: prefetch
// hint for the rest of the 128-byte line, which the neighbouring threads' copies are reading.
// dst and src must be 16-byte aligned. Asynchronous: complete only after wait_group (below).
CARBIDE_TILE_DEVICE void cp_async_16(std::uint32_t dst, const void* src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
}
CARBIDE_TILE_DEVICE void cp_async_16(std::uint32_t dst, const void* src, bool valid) {
  cp_async_16(dst, src, valid ? 16 : 0);
}
// cp.async.commit_group: closes the group of this thread's cp.async issued since the last commit.
CARBIDE_TILE_DEVICE void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
// cp.async.wait_group N: waits until at most N of this thread's committed groups are pending.
// It orders only this thread's copies; a barrier must follow before other threads read them.
// "memory" clobber: shared reads after it must not be hoisted above it.
template <int kPending>
CARBIDE_TILE_DEVICE void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// One thread's part of copying successive kRows × kCols tiles of a row-major global matrix
// (leading dimension `ld` elements) into a swizzled_tile, e.g. the k tiles of a GEMM operand.
// It keeps a running source pointer: advance() moves it to the next tile.
template <class Tile, int kThreads, class T>
class tile_loader {
  using Plan = tile_copy_plan<Tile, kThreads>;

 public:
  // `origin` points at element (0, 0) of the first tile; `thread` is this thread's index in the block.
  CARBIDE_TILE_DEVICE tile_loader(const T* origin, int ld, int thread)
      : source_(origin + std::ptrdiff_t(Plan::row(thread)) * ld + Plan::chunk(thread) * Tile::kElemsPerChunk),
        pass_stride_(Plan::kRowsPerPass * ld),
        store_(Tile::offset(Plan::row(thread), Plan::chunk(thread))),
        row_(Plan::row(thread)),
        col_(Plan::chunk(thread) * Tile::kElemsPerChunk) {}

  // Issues this thread's copies of the current tile into the tile at shared address `tile`.
  // kMasked: only elements at rows < rows_left and columns < cols_left (relative to the tile's
  // origin) are read, the rest is zero-filled; columns are masked per 16-byte chunk, so the
  // matrix's extent along a row must be a multiple of kElemsPerChunk. `fallback` is any valid
  // address, passed for masked copies (which read nothing) instead of one past the matrix.
  template <bool kMasked>
  CARBIDE_TILE_DEVICE void issue(std::uint32_t tile, int rows_left = 0, int cols_left = 0,
                                 const T* fallback = nullptr) const {
#pragma unroll
    for (int p = 0; p < Plan::kPasses; ++p) {
      const std::uint32_t dst = tile + store_ + Tile::row_step(p * Plan::kRowsPerPass);
      if constexpr (kMasked) {
        const bool ok = col_ < cols_left && row_ + p * Plan::kRowsPerPass < rows_left;
        cp_async_16(dst, ok ? source_ + p * pass_stride_ : fallback, ok);
      } else {
        cp_async_16(dst, source_ + p * pass_stride_, 16);
      }
    }
  }
  CARBIDE_TILE_DEVICE void advance(std::ptrdiff_t elements) { source_ += elements; }

 private:
  const T* source_;
  int pass_stride_;
  std::uint32_t store_;
  int row_, col_;
};

#endif  // __CUDACC__

}  // namespace sm80
}  // namespace carbide::tile
