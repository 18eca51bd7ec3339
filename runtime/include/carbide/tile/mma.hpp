// Warp-level tensor-core mechanisms of the sm_80 instruction set (they run on sm_80 to sm_90):
// register fragments of mma.sync m16n8k16 with bf16/f16 inputs and f32 accumulators, the
// ldmatrix loads that fill them from shared memory, and the fragments' layouts as constexpr maps.
//
// Names follow the PTX ISA ("Warp Level Matrix Multiply-Accumulate Instructions"):
//   "Matrix Fragments for mma.m16n8k16 with floating point type" gives which lane
//     holds which element of A (16×16), B (16×8) and C/D (16×8); m16n8k16 below writes it as code.
//   "Warp-level matrix load instruction: ldmatrix" gives which lane supplies which
//     row address and which elements each lane receives.
// The layout maps are plain constexpr functions (host-visible), so the translator's planner and
// host tests can reason about them; the static_asserts at the end prove, by simulating ldmatrix,
// that the addressing convention below yields exactly the mma operand fragments.
// Everything that issues an instruction is device-only (#if defined(__CUDACC__)).
#pragma once

#include <carbide/tile/types.hpp>

#include <cstdint>

namespace carbide::tile::sm80 {

// Lane l of a warp is "groupID" l / 4 and "threadID_in_group" l % 4 in the ISA's fragment tables.
struct m16n8k16 {
  static constexpr int kM = 16, kN = 8, kK = 16;

  // A, 16×16 row-major ("row"): 4 registers of two 16-bit elements a0..a7; element i of lane l.
  //   a0,a1: row g,   k 2t + {0,1}     a2,a3: row g+8, k 2t + {0,1}
  //   a4,a5: row g,   k 2t + 8 + {0,1} a6,a7: row g+8, k 2t + 8 + {0,1}
  static CARBIDE_TILE_CONSTEXPR int a_row(int lane, int i) { return lane / 4 + ((i / 2) % 2) * 8; }
  static CARBIDE_TILE_CONSTEXPR int a_col(int lane, int i) { return (lane % 4) * 2 + i % 2 + (i / 4) * 8; }
  // B, 16×8 ("col": k-major per column): 2 registers b0..b3.
  //   b0,b1: k 2t + {0,1}, column g      b2,b3: k 2t + 8 + {0,1}, column g
  static CARBIDE_TILE_CONSTEXPR int b_row(int lane, int i) { return (lane % 4) * 2 + i % 2 + (i / 2) * 8; }
  static CARBIDE_TILE_CONSTEXPR int b_col(int lane, int /*i*/) { return lane / 4; }
  // C and D, 16×8 f32: 4 registers c0..c3.
  //   c0,c1: row g, column 2t + {0,1}    c2,c3: row g+8, column 2t + {0,1}
  static CARBIDE_TILE_CONSTEXPR int c_row(int lane, int i) { return lane / 4 + (i / 2) * 8; }
  static CARBIDE_TILE_CONSTEXPR int c_col(int lane, int i) { return (lane % 4) * 2 + i % 2; }
};

// ldmatrix .x4 reads four 8×8 matrices of 16-bit elements; lanes 8j..8j+7 give the row addresses
// of matrix j (16 contiguous bytes each), and lane l receives, in register j, row l/4, columns
// 2(l%4) and 2(l%4)+1 of matrix j (with .trans: of matrix j transposed).
//
// The addressing convention used here for a 16×16 block (rows r, 16-bit columns c):
//   lane l points at row l % 16, columns 8·(l / 16) .. +7.
// So matrix 0 = rows 0-7 cols 0-7, 1 = rows 8-15 cols 0-7, 2 = rows 0-7 cols 8-15, 3 = rows 8-15
// cols 8-15. Without .trans on a row-major (m, k) block that is exactly the A fragment; with .trans
// on a k-major (k, n) block (B stored row-major, n contiguous) it is the B fragments of the two
// n8 tiles n 0-7 (registers 0,1) and n 8-15 (registers 2,3).
CARBIDE_TILE_CONSTEXPR int ldmatrix_x4_row(int lane) { return lane % 16; }
CARBIDE_TILE_CONSTEXPR int ldmatrix_x4_col(int lane) { return (lane / 16) * 8; }

template <class T>
struct frag_a {  // one m16n8k16 A operand (16×16): what ldmatrix.x4 delivers
  static_assert(is_mma16_v<T>, "mma.sync m16n8k16 takes bf16 or f16");
  std::uint32_t reg[4];
};
template <class T>
struct frag_b {  // one m16n8k16 B operand (16×8); ldmatrix.x4.trans delivers two
  static_assert(is_mma16_v<T>, "mma.sync m16n8k16 takes bf16 or f16");
  std::uint32_t reg[2];
};
struct frag_acc {  // one m16n8 f32 accumulator
  float reg[4];
};

#if defined(__CUDACC__)

// The 32-bit shared-window address that ldmatrix, cp.async and friends take.
CARBIDE_TILE_DEVICE std::uint32_t smem_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// ldmatrix.sync.aligned.m8n8.x4.shared.b16: four 8×8 b16 matrices, lane addresses as above.
// Each row address must be 16-byte aligned. volatile: the same shared address is read again after
// the pipeline refills it, and a non-volatile asm could be merged across the barrier between.
CARBIDE_TILE_DEVICE void ldmatrix_x4(std::uint32_t (&r)[4], std::uint32_t address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}
// ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16: the same, each matrix transposed on delivery.
CARBIDE_TILE_DEVICE void ldmatrix_x4_trans(std::uint32_t (&r)[4], std::uint32_t address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

// A 16×16 A operand from a row-major (m, k) tile; `address` is this lane's row per the convention.
template <class T>
CARBIDE_TILE_DEVICE void load_a(frag_a<T>& a, std::uint32_t address) {
  ldmatrix_x4(a.reg, address);
}
// The B operands of two adjacent n8 tiles from a k-major (k, n) tile (B row-major in memory).
template <class T>
CARBIDE_TILE_DEVICE void load_b_pair_trans(frag_b<T>& b0, frag_b<T>& b1, std::uint32_t address) {
  std::uint32_t r[4];
  ldmatrix_x4_trans(r, address);
  b0.reg[0] = r[0], b0.reg[1] = r[1], b1.reg[0] = r[2], b1.reg[1] = r[3];
}

// mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16}.{bf16,f16}.f32: d += a · b, in place.
// Not volatile: it has no side effect beyond its operands, and leaving it free lets the compiler
// interleave the mmas with the ldmatrix loads of the next k step.
CARBIDE_TILE_DEVICE void mma(frag_acc& d, const frag_a<bf16>& a, const frag_b<bf16>& b) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d.reg[0]), "+f"(d.reg[1]), "+f"(d.reg[2]), "+f"(d.reg[3])
      : "r"(a.reg[0]), "r"(a.reg[1]), "r"(a.reg[2]), "r"(a.reg[3]), "r"(b.reg[0]), "r"(b.reg[1]));
}
CARBIDE_TILE_DEVICE void mma(frag_acc& d, const frag_a<f16>& a, const frag_b<f16>& b) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d.reg[0]), "+f"(d.reg[1]), "+f"(d.reg[2]), "+f"(d.reg[3])
      : "r"(a.reg[0]), "r"(a.reg[1]), "r"(a.reg[2]), "r"(a.reg[3]), "r"(b.reg[0]), "r"(b.reg[1]));
}

CARBIDE_TILE_DEVICE void zero(frag_acc& d) { d.reg[0] = d.reg[1] = d.reg[2] = d.reg[3] = 0.f; }

// The accumulator rounded to T into a row-major tile at `tile` (row stride `stride` elements),
// the fragment's (0, 0) at (row0, col0): c0,c1 and c2,c3 are column pairs, one 4-byte store each.
template <class T>
CARBIDE_TILE_DEVICE void store_acc(const frag_acc& d, T* tile, int stride, int row0, int col0) {
  const int lane = threadIdx.x % 32;
  const int row = row0 + m16n8k16::c_row(lane, 0), col = col0 + m16n8k16::c_col(lane, 0);
  *reinterpret_cast<std::uint32_t*>(tile + row * stride + col) = pack2<T>(d.reg[0], d.reg[1]);
  *reinterpret_cast<std::uint32_t*>(tile + (row + 8) * stride + col) = pack2<T>(d.reg[2], d.reg[3]);
}

#endif  // __CUDACC__

namespace detail {
// Simulates ldmatrix.x4 with the addressing convention and checks that lane l's element i is the
// one the mma fragment table assigns to it. Row and column of the 16×16 block, per delivery.
CARBIDE_TILE_CONSTEXPR bool ldmatrix_x4_feeds_a() {
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 8; ++i) {
      const int j = i / 2;                   // register j comes from matrix j
      const int supplier = 8 * j + lane / 4;  // the lane that gave row lane/4 of matrix j
      const int row = ldmatrix_x4_row(supplier), col = ldmatrix_x4_col(supplier) + (lane % 4) * 2 + i % 2;
      if (row != m16n8k16::a_row(lane, i) || col != m16n8k16::a_col(lane, i)) return false;
    }
  return true;
}
// With .trans on a (k, n) block: register j holds matrix j transposed, so lane l gets the column
// l/4 of matrix j at rows 2(l%4), 2(l%4)+1. Registers 0,1 must be B of n 0-7, registers 2,3 of n 8-15.
CARBIDE_TILE_CONSTEXPR bool ldmatrix_x4_trans_feeds_b_pair() {
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 8; ++i) {
      const int j = i / 2;
      const int k = ldmatrix_x4_row(8 * j + (lane % 4) * 2 + i % 2);  // supplier of that row
      const int n = ldmatrix_x4_col(8 * j) + lane / 4;
      const int tile = j / 2, bi = i % 4;  // which n8 tile, which element of its fragment
      if (k != m16n8k16::b_row(lane, bi) || n != tile * 8 + m16n8k16::b_col(lane, bi)) return false;
    }
  return true;
}
}  // namespace detail
static_assert(detail::ldmatrix_x4_feeds_a(), "ldmatrix.x4 addressing must deliver the A fragment");
static_assert(detail::ldmatrix_x4_trans_feeds_b_pair(), "ldmatrix.x4.trans must deliver two B fragments");

}  // namespace carbide::tile::sm80
