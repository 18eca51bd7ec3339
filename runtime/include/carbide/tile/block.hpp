// Register tiles of a tile block: the layouts that spread a tile's elements over the block's
// threads, the fragment that holds one thread's share, the block's tile coordinates, and the loads
// and stores between a tensor argument and a fragment. docs/tile-lowering.md is the contract the
// emitter writes against; ctd below is carbide::tile::detail, as in the emitted code.
//
// A tile of shape<E0, ..., En> is seen as a (E0·...·En-1) × En matrix: rows are the leading
// extents flattened row-major, columns the last axis (a rank-1 tile is one row). Layouts, fragment
// sizes and index maps are constexpr and host-visible; everything that touches memory or threadIdx
// is device-only (#if defined(__CUDACC__)).
#pragma once

#include <carbide/tile/args.hpp>
#include <carbide/tile/shape.hpp>
#include <carbide/tile/types.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>

// Loops over a fragment's elements, fully unrolled in device code so the elements stay in
// registers; plain loops for a host compiler (and nvcc's host pass), which does not know the pragma.
#if defined(__CUDA_ARCH__)
#define CARBIDE_TILE_UNROLL _Pragma("unroll")
#else
#define CARBIDE_TILE_UNROLL
#endif

namespace carbide::tile::detail {

// The tile's elements in row-major order, cut into chunks of Vec contiguous elements of the last
// axis; chunk c belongs to thread c % Threads, in its slot c / Threads.
template <int Threads, int Vec>
struct blocked {
  static constexpr int kThreads = Threads, kVec = Vec;
  static_assert(Threads > 0 && Vec > 0);
};

template <class Layout>
inline constexpr bool is_blocked_v = false;
template <int Threads, int Vec>
inline constexpr bool is_blocked_v<blocked<Threads, Vec>> = true;

// How a layout spreads a tile of `Shape` over threads; kCount is the elements one thread holds.
// Specialized per layout (sm80::acc in gemm_sm80.hpp).
template <class Shape, class Layout>
struct layout_of;

template <class Shape, int Threads, int Vec>
struct layout_of<Shape, blocked<Threads, Vec>> {
  static constexpr int kCols = Shape::last();
  static constexpr int kRows = int(Shape::size / kCols);
  static_assert(kCols % Vec == 0, "blocked<Threads, Vec>: Vec divides the tile's last extent");
  static constexpr int kThreads = Threads, kVec = Vec;
  static constexpr int kChunksPerRow = kCols / Vec;
  static constexpr int kChunks = kRows * kChunksPerRow;
  static constexpr int kSlots = (kChunks + Threads - 1) / Threads;
  static constexpr bool kRagged = kChunks % Threads != 0;  // the last slot is missing in some threads
  static constexpr int kCount = kSlots * Vec;
  // Row-major linear index of element i (slot i / Vec, element i % Vec) of `thread`.
  static CARBIDE_TILE_CONSTEXPR int linear_index(int thread, int i) { return ((i / Vec) * Threads + thread) * Vec + i % Vec; }
  // The same, or -1 where the thread lacks slot i / Vec (the last slot of a ragged layout).
  static CARBIDE_TILE_CONSTEXPR int index(int thread, int i) {
    return (i / Vec) * Threads + thread < kChunks ? linear_index(thread, i) : -1;
  }
  static CARBIDE_TILE_CONSTEXPR int column(int thread, int i) { return index(thread, i) < 0 ? -1 : index(thread, i) % kCols; }

  // Row slots (layouts.hpp's rows_of): a slot's chunk lies in one row, so slot s holds row
  // slot_row(thread, s), -1 where the thread lacks the slot.
  static constexpr int kRowSlots = kSlots;
  static CARBIDE_TILE_CONSTEXPR int row_slot(int i) { return i / Vec; }
  static CARBIDE_TILE_CONSTEXPR int slot_row(int thread, int s) {
    return s * Threads + thread < kChunks ? (s * Threads + thread) / kChunksPerRow : -1;
  }
  // Column slots (cols_of): when the threads are a multiple of a row's chunks, every slot of a
  // thread covers the same Vec columns; otherwise each element is its own slot.
  static constexpr bool kSameColumns = Threads % kChunksPerRow == 0;
  static constexpr int kColSlots = kSameColumns ? Vec : kCount;
  static CARBIDE_TILE_CONSTEXPR int col_slot(int i) { return kSameColumns ? i % Vec : i; }
  static CARBIDE_TILE_CONSTEXPR int slot_column(int thread, int c) {
    return kSameColumns ? (thread % kChunksPerRow) * Vec + c : column(thread, c);
  }
};

// One thread's share of a tile value: kCount elements, their positions given by the layout.
template <class T, class Shape, class Layout>
struct frag {
  using value_type = T;
  using shape_type = Shape;
  using layout_type = Layout;
  static constexpr int kCount = layout_of<Shape, Layout>::kCount;
  T v[kCount];
};

template <class X>
inline constexpr bool is_frag_v = false;
template <class T, class Shape, class Layout>
inline constexpr bool is_frag_v<frag<T, Shape, Layout>> = true;

// A shape's extent along `axis` (1 past the rank), usable in device code, where shape::extent (a
// host constexpr function) may only appear in constant expressions.
template <class Shape>
struct extents;
template <int... E>
struct extents<shape<E...>> {
  static CARBIDE_TILE_CONSTEXPR int at(int axis) {
    const int all[] = {E..., 1};
    return all[axis];
  }
};

// This block's tile coordinates, or a tile index the kernel wrote as a braced list ({bm, k}).
template <int Rank>
struct tile_coord {
  int index[Rank];
  CARBIDE_TILE_HD int operator[](int axis) const { return index[axis]; }
};

// 16-bit floats compute in f32 (rounded once per op); every other element type in itself.
template <class T>
inline constexpr bool is_float16_v = is_mma16_v<T>;
template <class T>
using compute_t = std::conditional_t<is_float16_v<T>, float, T>;

// A value converted to element type U: through float for the 16-bit types, which convert
// explicitly from float only.
template <class U, class V>
CARBIDE_TILE_HD U convert(V value) {
  if constexpr (is_float16_v<U> || is_float16_v<V>)
    return U(float(value));
  else
    return static_cast<U>(value);
}

template <class T, class Shape, class Layout, class V>
CARBIDE_TILE_HD frag<T, Shape, Layout> full(V value) {
  frag<T, Shape, Layout> f;
  const T v = convert<T>(value);
  CARBIDE_TILE_UNROLL
  for (int i = 0; i < f.kCount; ++i) f.v[i] = v;
  return f;
}
template <class T, class Shape, class Layout>
CARBIDE_TILE_HD frag<T, Shape, Layout> zeros() {
  return full<T, Shape, Layout>(0);
}

#if defined(__CUDACC__)

// The tile of `in` at `tile` in a layout other than blocked (layouts.hpp, exchange.hpp): one
// element at a time, each where the layout's index map puts it.
template <class Shape, class Layout, class T, int Rank, class Pad>
CARBIDE_TILE_DEVICE frag<T, Shape, Layout> load_mapped(const in_arg<T, Rank>& in, const tile_coord<Rank>& tile, Pad pad);

// blockIdx.x as tile coordinates over out.tiles, the last axis fastest. The tile counts fit in
// int (the grid is at most 2^31 - 1 blocks), so the divisions are 32-bit. The first axis takes
// what is left (the grid is the product of the counts), and an axis of one tile (a row kernel's
// last) divides by nothing: the first load's address waits on these divisions, and a block of a
// row kernel is short-lived (bench/results/2026-12-04-h200-session11.md).
// Whole: the entry for launches whose outputs have more than one tile along the first axis only
// (docs/tile-lowering.md, "Whole launches"), where the coordinates are {blockIdx.x, 0, ...}
// without reading the tile counts.
template <bool Whole = false, class T, int Rank>
CARBIDE_TILE_DEVICE tile_coord<Rank> block_coord([[maybe_unused]] const out_arg<T, Rank>& out) {
  tile_coord<Rank> coord;
  if constexpr (Whole) {
    coord.index[0] = int(blockIdx.x);
#pragma unroll
    for (int axis = 1; axis < Rank; ++axis) coord.index[axis] = 0;
    return coord;
  }
  unsigned id = blockIdx.x;
#pragma unroll
  for (int axis = Rank - 1; axis > 0; --axis) {
    const unsigned tiles = unsigned(out.tiles[axis]);
    if (tiles == 1) {
      coord.index[axis] = 0;
    } else {
      coord.index[axis] = int(id % tiles);
      id /= tiles;
    }
  }
  coord.index[0] = int(id);
  return coord;
}

// Where chunk c = s · Threads + t (slot s of thread t) lies in the tile: its row, and the column
// of its first element. Written per case so that the slot's share is a compile-time constant and
// the thread's share is computed once (unsigned: power-of-two divisions become shifts and masks).
template <class L>
CARBIDE_TILE_DEVICE int chunk_row(int s, unsigned t) {
  if constexpr (L::kThreads % L::kChunksPerRow == 0)  // each slot holds whole rows
    return s * (L::kThreads / L::kChunksPerRow) + int(t / L::kChunksPerRow);
  else if constexpr (L::kChunksPerRow % L::kThreads == 0)  // each row spans whole slots
    return s / (L::kChunksPerRow / L::kThreads);
  else
    return int((unsigned(s) * L::kThreads + t) / L::kChunksPerRow);
}
template <class L>
CARBIDE_TILE_DEVICE int chunk_column(int s, unsigned t) {
  if constexpr (L::kThreads % L::kChunksPerRow == 0)
    return int(t % L::kChunksPerRow) * L::kVec;
  else if constexpr (L::kChunksPerRow % L::kThreads == 0)
    return (s % (L::kChunksPerRow / L::kThreads) * L::kThreads + int(t)) * L::kVec;
  else
    return int((unsigned(s) * L::kThreads + t) % L::kChunksPerRow) * L::kVec;
}
template <class L>
CARBIDE_TILE_DEVICE bool chunk_exists(int s, unsigned t) {
  return !L::kRagged || unsigned(s) * L::kThreads + t < unsigned(L::kChunks);
}

// Where one tile lies in a tensor argument (an in_arg or out_arg): the offset of its first
// element, each row's offset from there and whether the row is inside, the columns inside, and
// whether the whole tile is inside and aligned. The last axis's stride is 1 (args.hpp), so a
// row's elements are contiguous.
template <class Shape, class Arg, int Rank>
struct tile_window {
  static_assert(Shape::rank == Rank, "a tile's rank is the tensor's");
  static constexpr int kLastAxis = Rank - 1;
  const Arg& arg;
  const tile_coord<Rank>& tile;

  CARBIDE_TILE_DEVICE std::int64_t start(int axis) const { return std::int64_t(tile[axis]) * extents<Shape>::at(axis); }
  CARBIDE_TILE_DEVICE std::int64_t origin() const {
    std::int64_t offset = 0;
    CARBIDE_TILE_UNROLL
    for (int axis = 0; axis < Rank; ++axis) offset += start(axis) * arg.stride[axis];
    return offset;
  }
  // Every element inside the tensor, and 16-byte accesses on chunk boundaries allowed.
  CARBIDE_TILE_DEVICE bool whole_and_aligned() const {
    bool whole = arg.aligned16 != 0;
    CARBIDE_TILE_UNROLL
    for (int axis = 0; axis < Rank; ++axis) whole = whole && start(axis) + extents<Shape>::at(axis) <= arg.extent[axis];
    return whole;
  }
  CARBIDE_TILE_DEVICE std::int64_t columns_left() const { return arg.extent[kLastAxis] - start(kLastAxis); }
  // Offset of tile row `row` from origin(); `inside`: the row exists in the tensor.
  CARBIDE_TILE_DEVICE std::int64_t row_offset(int row, bool& inside) const {
    if constexpr (Rank == 1) {
      inside = true;
      return 0;
    } else if constexpr (Rank == 2) {
      inside = start(0) + row < arg.extent[0];
      return row * arg.stride[0];
    } else {
      std::int64_t offset = 0;
      inside = true;
      CARBIDE_TILE_UNROLL
      for (int axis = Rank - 2; axis >= 0; --axis) {
        const int extent = extents<Shape>::at(axis), i = row % extent;
        row /= extent;
        inside = inside && start(axis) + i < arg.extent[axis];
        offset += i * arg.stride[axis];
      }
      return offset;
    }
  }
};

// The raw type one chunk of Bytes moves in (16-byte chunks and larger move as several uint4).
template <int Bytes>
struct chunk_bits {
  using type = void;  // no single access: move element by element
};
template <>
struct chunk_bits<2> {
  using type = unsigned short;
};
template <>
struct chunk_bits<4> {
  using type = unsigned;
};
template <>
struct chunk_bits<8> {
  using type = uint2;
};

// Copies one chunk of Vec elements between global memory and a fragment, with one access a
// 16 bytes (or one access of the chunk's size when it is smaller), addresses chunk-aligned. Loads
// go through the read-only path (ld.global.nc): inputs never alias an output of the same launch
// (the stub rejects overlapping ranges). They keep L1 allocation, which a tile every block reads
// (a layernorm's gamma) needs.
template <class T, int Vec>
CARBIDE_TILE_DEVICE void load_chunk(T* to, const T* from) {
  constexpr int kBytes = Vec * int(sizeof(T));
  if constexpr (kBytes % 16 == 0) {
    CARBIDE_TILE_UNROLL
    for (int q = 0; q < kBytes / 16; ++q) {
      const uint4 bits = __ldg(reinterpret_cast<const uint4*>(from) + q);
      std::memcpy(reinterpret_cast<char*>(to) + 16 * q, &bits, 16);
    }
  } else if constexpr (!std::is_void_v<typename chunk_bits<kBytes>::type>) {
    using bits_t = typename chunk_bits<kBytes>::type;
    const bits_t bits = __ldg(reinterpret_cast<const bits_t*>(from));
    std::memcpy(to, &bits, kBytes);
  } else {
    CARBIDE_TILE_UNROLL
    for (int j = 0; j < Vec; ++j) to[j] = from[j];
  }
}
template <class T, int Vec>
CARBIDE_TILE_DEVICE void store_chunk(T* to, const T* from) {
  constexpr int kBytes = Vec * int(sizeof(T));
  if constexpr (kBytes % 16 == 0) {
    CARBIDE_TILE_UNROLL
    for (int q = 0; q < kBytes / 16; ++q) {
      // One st.global.v4 in inline PTX, as CUTLASS writes it: through a plain uint4 store, nvcc
      // split the chunks of a computed tile (softmax's e / sum) into four 4-byte stores.
      std::uint32_t words[4];
      std::memcpy(words, reinterpret_cast<const char*>(from) + 16 * q, 16);
      asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"l"(reinterpret_cast<uint4*>(to) + q),
                   "r"(words[0]), "r"(words[1]), "r"(words[2]), "r"(words[3])
                   : "memory");
    }
  } else if constexpr (!std::is_void_v<typename chunk_bits<kBytes>::type>) {
    using bits_t = typename chunk_bits<kBytes>::type;
    bits_t bits;
    std::memcpy(&bits, from, kBytes);
    *reinterpret_cast<bits_t*>(to) = bits;
  } else {
    CARBIDE_TILE_UNROLL
    for (int j = 0; j < Vec; ++j) to[j] = from[j];
  }
}

// The tile of `in` at `tile`, wholly inside the tensor and aligned (tile_window::whole_and_aligned):
// one vector access a chunk, no edge tests.
template <class Shape, class Layout, class T, int Rank>
CARBIDE_TILE_DEVICE frag<T, Shape, Layout> load_whole(const in_arg<T, Rank>& in, const tile_coord<Rank>& tile) {
  using L = layout_of<Shape, Layout>;
  const tile_window<Shape, in_arg<T, Rank>, Rank> window{in, tile};
  const T* origin = in.data + window.origin();
  const unsigned thread = threadIdx.x;
  frag<T, Shape, Layout> f;
  CARBIDE_TILE_UNROLL
  for (int s = 0; s < L::kSlots; ++s) {
    if (!chunk_exists<L>(s, thread)) continue;
    bool inside;
    const std::int64_t row = window.row_offset(chunk_row<L>(s, thread), inside);
    load_chunk<T, L::kVec>(&f.v[s * L::kVec], origin + row + chunk_column<L>(s, thread));
  }
  return f;
}

// The tile of `in` at tile index `tile` (origin tile[i] · Shape[i]); elements outside the tensor
// read as `pad`. A tile wholly inside an aligned tensor takes the vector path; the choice is one
// uniform branch. Whole: the entry of a whole launch, whose stub checked that every tile it
// reads is whole and aligned; no test at all.
template <class Shape, class Layout, bool Whole = false, class T, int Rank, class Pad>
CARBIDE_TILE_DEVICE frag<T, Shape, Layout> load(const in_arg<T, Rank>& in, const tile_coord<Rank>& tile, Pad pad) {
  if constexpr (!is_blocked_v<Layout>) return load_mapped<Shape, Layout>(in, tile, pad);
  else if constexpr (Whole) return load_whole<Shape, Layout>(in, tile);
  else {
  using L = layout_of<Shape, Layout>;
  constexpr int kVec = L::kVec;
  const tile_window<Shape, in_arg<T, Rank>, Rank> window{in, tile};
  const T* origin = in.data + window.origin();
  const unsigned thread = threadIdx.x;
  frag<T, Shape, Layout> f;
  if (window.whole_and_aligned()) {
    f = load_whole<Shape, Layout>(in, tile);
  } else {
    const T pad_value = convert<T>(pad);
    const std::int64_t columns_left = window.columns_left();
    CARBIDE_TILE_UNROLL
    for (int s = 0; s < L::kSlots; ++s) {
      bool inside;
      const std::int64_t row = window.row_offset(chunk_row<L>(s, thread), inside);
      inside = inside && chunk_exists<L>(s, thread);
      const int column = chunk_column<L>(s, thread);
      if (inside && column + kVec <= columns_left) {  // the whole chunk, without per-element tests
        T chunk[kVec];
        CARBIDE_TILE_UNROLL
        for (int j = 0; j < kVec; ++j) chunk[j] = origin[row + column + j];
        std::memcpy(&f.v[s * kVec], chunk, sizeof chunk);
      } else {
        CARBIDE_TILE_UNROLL
        for (int j = 0; j < kVec; ++j)
          f.v[s * kVec + j] = inside && column + j < columns_left ? origin[row + column + j] : pad_value;
      }
    }
  }
  return f;
  }
}

// Writes `f` to `out` at `tile`, wholly inside the tensor and aligned: one vector access a chunk,
// no edge tests.
template <class T, int Rank, class Shape, int Threads, int Vec>
CARBIDE_TILE_DEVICE void store_whole(const out_arg<T, Rank>& out, const tile_coord<Rank>& tile,
                                     const frag<T, Shape, blocked<Threads, Vec>>& f) {
  using L = layout_of<Shape, blocked<Threads, Vec>>;
  const tile_window<Shape, out_arg<T, Rank>, Rank> window{out, tile};
  T* origin = out.data + window.origin();
  const unsigned thread = threadIdx.x;
  CARBIDE_TILE_UNROLL
  for (int s = 0; s < L::kSlots; ++s) {
    if (!chunk_exists<L>(s, thread)) continue;
    bool inside;
    const std::int64_t row = window.row_offset(chunk_row<L>(s, thread), inside);
    store_chunk<T, Vec>(origin + row + chunk_column<L>(s, thread), &f.v[s * Vec]);
  }
}

// Writes the elements of `f` that lie inside `out`, at tile `tile`; vector path when the tile is
// whole and aligned (always, in the entry of a whole launch: Whole).
template <bool Whole = false, class T, int Rank, class Shape, int Threads, int Vec>
CARBIDE_TILE_DEVICE void store(const out_arg<T, Rank>& out, const tile_coord<Rank>& tile,
                               const frag<T, Shape, blocked<Threads, Vec>>& f) {
  if constexpr (Whole) return store_whole(out, tile, f);
  using L = layout_of<Shape, blocked<Threads, Vec>>;
  const tile_window<Shape, out_arg<T, Rank>, Rank> window{out, tile};
  T* origin = out.data + window.origin();
  const unsigned thread = threadIdx.x;
  if (window.whole_and_aligned()) {
    store_whole(out, tile, f);
  } else {
    const std::int64_t columns_left = window.columns_left();
    CARBIDE_TILE_UNROLL
    for (int s = 0; s < L::kSlots; ++s) {
      bool inside;
      const std::int64_t row = window.row_offset(chunk_row<L>(s, thread), inside);
      if (!inside || !chunk_exists<L>(s, thread)) continue;
      CARBIDE_TILE_UNROLL
      for (int j = 0; j < Vec; ++j) {
        const int column = chunk_column<L>(s, thread) + j;
        if (column < columns_left) origin[row + column] = f.v[s * Vec + j];
      }
    }
  }
}

#endif  // __CUDACC__

}  // namespace carbide::tile::detail
