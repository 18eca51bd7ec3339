// ct::mma anywhere in a tile kernel's body (the GEMM k-loop has its own pipelined plans,
// gemm_sm80.hpp and gemm_sm90.hpp): acc + a · b on mma.sync m16n8k16, the accumulator and the
// result in mma_c<WarpsM, WarpsN> (layouts.hpp), each warp owning a warp tile of it.
//
// Operands reach the tensor cores two ways:
//   - through shared memory: the operand's elements are written into a swizzled tile (copy.hpp)
//     and read back as fragments with ldmatrix, from any layout. b as it lies (k rows of n) is
//     read with ldmatrix.trans, as the GEMM reads B; b given as transposed(x) (x is n rows of k,
//     `ct::mma(q, ct::transpose(k), s)`) is x staged as it is and read with plain ldmatrix, so
//     nothing is transposed element by element;
//   - in registers: an a that is itself a C fragment tile of the same warps, one warp across
//     (`ct::mma(ct::cast<ct::bf16>(p), v, o)` after p = ct::mma(...)): the C fragments of two
//     neighbouring n8 pieces are exactly the A fragment of one k16 step (the m16n8k16 maps in
//     mma.hpp), so P never leaves the registers.
// One mma is one shared-memory site (exchange.hpp): a barrier before its writes, one after.
#pragma once

#include <carbide/tile/block.hpp>
#include <carbide/tile/copy.hpp>
#include <carbide/tile/exchange.hpp>
#include <carbide/tile/layouts.hpp>
#include <carbide/tile/mma.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace carbide::tile::detail {

// b read transposed: `ct::mma(a, ct::transpose(x), acc)`, x's elements left where they are.
template <class F>
struct transposed {
  const F& f;
};
template <class F>
CARBIDE_TILE_HD transposed<F> read_transposed(const F& f) {
  return {f};
}

// A b operand's matrix (k × n) and the shared tile it is staged in.
template <class B>
struct b_operand;
template <class T, class Shape, class Layout>
struct b_operand<frag<T, Shape, Layout>> {
  static constexpr bool kTransposed = false;
  static constexpr int kK = int(Shape::size / Shape::last()), kN = Shape::last();
  using element_type = T;
  using Tile = swizzled_tile<kK, kN, T>;
  static CARBIDE_TILE_HD const frag<T, Shape, Layout>& tile(const frag<T, Shape, Layout>& b) { return b; }
};
template <class T, class Shape, class Layout>
struct b_operand<transposed<frag<T, Shape, Layout>>> {
  static constexpr bool kTransposed = true;
  static constexpr int kK = Shape::last(), kN = int(Shape::size / Shape::last());
  using element_type = T;
  using Tile = swizzled_tile<kN, kK, T>;
  static CARBIDE_TILE_HD const frag<T, Shape, Layout>& tile(const transposed<frag<T, Shape, Layout>>& b) { return b.f; }
};

// The shared bytes an mma with these operands stages (a's tile unless it stays in registers,
// then b's at the next 128-byte boundary): what the planner sizes the site with.
template <class T, class SA, class LA, class B, int WarpsM, int WarpsN>
struct mma_staging {
  static constexpr int kM = int(SA::size / SA::last()), kK = SA::last();
  static constexpr bool kARegisters = std::is_same_v<LA, mma_c<WarpsM, WarpsN>> && WarpsN == 1;
  static constexpr int kABytes = kARegisters ? 0 : (swizzled_tile<kM, kK, T>::kBytes + 127) / 128 * 128;
  static constexpr int kBytes = kABytes + b_operand<B>::Tile::kBytes;
};

#if defined(__CUDACC__)

// Writes a 16-bit tile's matrix into the swizzled shared tile at `base`: whole 16-byte chunks
// from a blocked layout of 16-byte chunks, element by element from any other.
template <class Tile, class T, class Shape, class Layout>
CARBIDE_TILE_DEVICE void stage(const frag<T, Shape, Layout>& f, unsigned char* base) {
  using L = layout_of<Shape, Layout>;
  const int thread = threadIdx.x;
  if constexpr (is_blocked_v<Layout> && Layout::kVec * sizeof(T) == 16) {
#pragma unroll
    for (int s = 0; s < L::kSlots; ++s) {
      if (!chunk_exists<L>(s, unsigned(thread))) continue;
      uint4 bits;
      std::memcpy(&bits, &f.v[s * Layout::kVec], 16);
      *reinterpret_cast<uint4*>(base + Tile::element_offset(chunk_row<L>(s, unsigned(thread)),
                                                            chunk_column<L>(s, unsigned(thread)))) = bits;
    }
  } else {
#pragma unroll
    for (int i = 0; i < L::kCount; ++i) {
      const int e = L::index(thread, i);
      if (e >= 0) *reinterpret_cast<T*>(base + Tile::element_offset(e / Shape::last(), e % Shape::last())) = f.v[i];
    }
  }
}

template <class T>
CARBIDE_TILE_DEVICE std::uint32_t pack_pair(T lo, T hi) {
  return std::uint32_t(lo.bits()) | std::uint32_t(hi.bits()) << 16;
}

template <int Capacity, class T, class SA, class LA, class B, class SC, int WarpsM, int WarpsN>
CARBIDE_TILE_DEVICE frag<float, SC, mma_c<WarpsM, WarpsN>> mma(const frag<T, SA, LA>& a, const B& b,
                                                               const frag<float, SC, mma_c<WarpsM, WarpsN>>& acc) {
  namespace mech = ::carbide::tile::sm80;
  using C = layout_of<SC, mma_c<WarpsM, WarpsN>>;
  using BOp = b_operand<B>;
  using Staging = mma_staging<T, SA, LA, B, WarpsM, WarpsN>;
  using ATile = swizzled_tile<Staging::kM, Staging::kK, T>;
  using BTile = typename BOp::Tile;
  constexpr int kK = Staging::kK;
  static_assert(is_mma16_v<T> && std::is_same_v<typename BOp::element_type, T>, "mma multiplies bf16 or f16 tiles");
  static_assert(Staging::kM == C::kRows && BOp::kK == kK && BOp::kN == C::kCols, "a is M × K, b K × N, acc M × N");
  static_assert(kK % 16 == 0 && C::kWarpTileN % 16 == 0, "k steps of 16, warp tiles of whole n16 pairs");
  static_assert(Staging::kBytes <= Capacity, "the plan gives this mma its shared bytes");

  unsigned char* const base = scratch();
  __syncthreads();  // the previous site's readers are done with the bytes
  if constexpr (!Staging::kARegisters) stage<ATile>(a, base);
  stage<BTile>(BOp::tile(b), base + Staging::kABytes);
  __syncthreads();

  const int thread = threadIdx.x, lane = thread % 32;
  const int row0 = C::warp_m(thread) * C::kWarpTileM, col0 = C::warp_n(thread) * C::kWarpTileN;
  const std::uint32_t a_shared = mech::smem_address(base), b_shared = mech::smem_address(base + Staging::kABytes);
  frag<float, SC, mma_c<WarpsM, WarpsN>> d = acc;
#pragma unroll
  for (int kk = 0; kk < kK / 16; ++kk) {
    mech::frag_a<T> af[C::kMmaM];
#pragma unroll
    for (int mi = 0; mi < C::kMmaM; ++mi) {
      if constexpr (Staging::kARegisters) {
        // a's pieces (mi, 2kk) and (mi, 2kk + 1): registers c0 c1 (row g) and c2 c3 (row g + 8).
        constexpr int kPieces = kK / 8;
        const int left = (mi * kPieces + 2 * kk) * 4, right = left + 4;
        af[mi].reg[0] = pack_pair(a.v[left], a.v[left + 1]);
        af[mi].reg[1] = pack_pair(a.v[left + 2], a.v[left + 3]);
        af[mi].reg[2] = pack_pair(a.v[right], a.v[right + 1]);
        af[mi].reg[3] = pack_pair(a.v[right + 2], a.v[right + 3]);
      } else {
        mech::load_a(af[mi], a_shared + ATile::element_offset(row0 + mi * 16 + mech::ldmatrix_x4_row(lane),
                                                              kk * 16 + mech::ldmatrix_x4_col(lane)));
      }
    }
#pragma unroll
    for (int nj = 0; nj < C::kMmaN / 2; ++nj) {
      mech::frag_b<T> b0, b1;
      if constexpr (BOp::kTransposed) {
        // x's rows are n, its columns k: plain ldmatrix gives register 0 and 2 of n 0-7, 1 and 3 of n 8-15.
        std::uint32_t r[4];
        mech::ldmatrix_x4(r, b_shared + BTile::element_offset(col0 + nj * 16 + mech::ldmatrix_x4_row(lane),
                                                              kk * 16 + mech::ldmatrix_x4_col(lane)));
        b0.reg[0] = r[0], b0.reg[1] = r[2], b1.reg[0] = r[1], b1.reg[1] = r[3];
      } else {
        mech::load_b_pair_trans(b0, b1, b_shared + BTile::element_offset(kk * 16 + mech::ldmatrix_x4_row(lane),
                                                                         col0 + nj * 16 + mech::ldmatrix_x4_col(lane)));
      }
#pragma unroll
      for (int mi = 0; mi < C::kMmaM; ++mi)
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          float* piece = &d.v[(mi * C::kMmaN + 2 * nj + half) * 4];
          mech::frag_acc c{{piece[0], piece[1], piece[2], piece[3]}};
          mech::mma(c, af[mi], half ? b1 : b0);
#pragma unroll
          for (int r = 0; r < 4; ++r) piece[r] = c.reg[r];
        }
    }
  }
  return d;
}

#endif  // __CUDACC__

}  // namespace carbide::tile::detail
