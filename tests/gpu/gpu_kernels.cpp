// Kernels the GPU tests launch through their generated module.
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

#include "particles.hpp"

namespace gpu_tests {

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(256)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void vecadd(carbide::span<const float> a, carbide::span<const float> b,
            carbide::disjoint_span<float> c) {
  auto idx = carbide::thread::index_1d();
  if (float* c_elem = c.get_mut(idx)) *c_elem = a[idx.get()] + b[idx.get()];
}

// Deliberately without a contract: the tests reach it through unsafe_launch_fill.
CARBIDE_KERNEL
void fill(carbide::disjoint_span<float> out, float value) {  // NOLINT(carbide-missing-contract)
  auto idx = carbide::thread::index_1d();
  if (float* elem = out.get_mut(idx)) *elem = value;
}

}  // namespace gpu_tests

namespace gpu_vocabulary {

constexpr unsigned kBlock = 256;

// Sum of the input two ways: a shared-memory tree per block, and warp sums gathered by lane 0.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void sums(carbide::span<const float> in, carbide::atomic_span<float> totals) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto lane = carbide::thread::lane();
  const float value = idx.get() < in.size() ? in[idx.get()] : 0.f;

  auto tile = carbide::block::shared<float, kBlock>();
  const unsigned l = lid.get();
  tile[l] = value;
  carbide::block::sync();
  for (unsigned s = kBlock / 2; s > 0; s /= 2) {
    if (l < s) tile[l] += tile[l + s];
    carbide::block::sync();
  }
  if (l == 0) totals.fetch_add(0, tile[0]);

  auto partial = carbide::block::shared<float, kBlock / 32>();
  const float warp_sum = carbide::warp::reduce_add(value);
  if (lane.get() == 0) partial[l / 32] = warp_sum;
  carbide::block::sync();
  if (l / 32 == 0) {
    const float block_sum = carbide::warp::reduce_add(lane.get() < kBlock / 32 ? partial[lane.get()] : 0.f);
    if (lane.get() == 0) totals.fetch_add(1, block_sum);
  }
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void histogram(carbide::span<const unsigned> values, carbide::atomic_span<unsigned> bins) {
  auto idx = carbide::thread::index_1d();
  if (idx.get() < values.size()) bins.fetch_add(values[idx.get()] % bins.size(), 1u);
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void coordinates(carbide::disjoint_span2d<float> m) {
  auto at = carbide::thread::index_2d();
  if (float* e = m.get_mut(at)) *e = float(at.row() * 1000 + at.col());
}

// Blocks in grouped order (three block rows at a time, column by column): each element records
// the launch's block that wrote it, (block y << 16) | block x.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 8, 1))
void grouped_blocks(carbide::disjoint_span2d<unsigned> writer) {
  auto at = carbide::thread::index_2d<carbide::block_order::grouped<3>>();
  if (unsigned* e = writer.get_mut(at))
    *e = (carbide::thread::block_idx().y << 16) | carbide::thread::block_idx().x;
}

// A matrix one launch wrote, read by (row, col) in the next: out = inᵀ.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void transpose_read(carbide::span2d<const float> in, carbide::disjoint_span2d<float> out) {
  auto at = carbide::thread::index_2d();
  if (float* e = out.get_mut(at)) *e = in(at.col(), at.row());
}

// Each thread writes its 4 × 2 piece: column by column into `by_columns`, row by row into
// `by_rows`; pieces cut by the matrix's edges store only their own elements.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void tile_pieces(carbide::disjoint_span2d<float> by_columns, carbide::disjoint_span2d<float> by_rows) {
  auto at = carbide::thread::index_2d();
  const float first = float(at.row() * 4 * 1000 + at.col() * 2);
  if (auto piece = by_columns.get_mut_tile<4, 2>(at))
    for (int j = 0; j < piece.cols(); ++j) {
      carbide::vec<float, 4> column;
      for (int i = 0; i < 4; ++i) column[i] = first + float(i * 1000 + j);
      piece.store_column(j, column);
    }
  auto again = carbide::thread::index_2d();
  if (auto piece = by_rows.get_mut_tile<4, 2>(again))
    for (int i = 0; i < piece.rows(); ++i) piece.store_row(i, carbide::vec<float, 2>{{first + float(i * 1000), first + float(i * 1000 + 1)}});
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void scale_all(carbide::span<const float> in, carbide::disjoint_span<float> out, float a) {
  for (auto&& w : carbide::thread::grid_stride(out))
    if (float* e = out.get_mut(w)) *e = a * in[w.get()];
}

// Reverses each block's slice through shared memory; one barrier between write and read.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void reverse_blocks(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::shared<float, kBlock>();
  tile[lid] = idx.get() < in.size() ? in[idx.get()] : 0.f;
  carbide::block::sync();
  if (float* o = out.get_mut(idx)) *o = tile[kBlock - 1 - lid.get()];
}

// Each warp's inclusive prefix sums.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void warp_scan(carbide::span<const unsigned> in, carbide::disjoint_span<unsigned> out) {
  auto idx = carbide::thread::index_1d();
  const unsigned prefix = carbide::warp::inclusive_scan_add(idx.get() < in.size() ? in[idx.get()] : 0u);
  if (unsigned* element = out.get_mut(idx)) *element = prefix;
}

// Per warp: its largest and smallest value, lane 0's and lane 31's (broadcast), lane
// (lane + 1) % 32's (shfl), and the values read through a subspan of the warp's 32 elements.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void warp_forms(carbide::span<const int> in, carbide::disjoint_span<int> out) {
  auto idx = carbide::thread::index_1d();
  const unsigned lane = carbide::thread::thread_idx().x % 32;
  const std::size_t first = idx.get() - lane;
  const carbide::span<const int> warp_values = first < in.size() ? in.subspan(first, min(in.size() - first, std::size_t(32))) : in.subspan(0, 0);
  const int mine = lane < warp_values.size() ? warp_values[lane] : 0;
  const int results[5] = {carbide::warp::reduce_max(mine), carbide::warp::reduce_min(mine),
                          carbide::warp::broadcast<0>(mine), carbide::warp::broadcast<31>(mine),
                          carbide::warp::shfl(mine, (lane + 1) % 32)};
  if (int* element = out.get_mut(idx)) *element = results[lane % 5];
}

// Warp w of the grid owns row w of `cols` columns: lane 0 writes the row's largest value through
// the generic fold, and the lanes write each element minus it, striding the row by 32.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void warp_rows(carbide::span<const int> in, carbide::disjoint_span<int> out, carbide::disjoint_span<int> largest,
               unsigned rows, unsigned cols) {
  auto warp = carbide::thread::warp_index_1d();
  if (warp.get() >= rows) return;
  const carbide::span<const int> row_in = in.subspan(warp.get() * cols, cols);
  int top = -2147483647 - 1;  // INT_MIN
  for (unsigned c = carbide::thread::lane().get(); c < cols; c += 32) top = max(top, row_in[c]);
  top = carbide::warp::reduce(top, [](int a, int b) { return a < b ? b : a; });
  if (int* l = largest.get_mut_warp_leader(warp)) *l = top;
  auto row = out.get_mut_warp_row(warp, cols);
  for (unsigned k = 0; k < row.count(); ++k) row[k] = row_in[row.index(k)] - top;
}

// Each element holds the number of the block that wrote it, with the blocks in reversed order.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void reversed_blocks(carbide::disjoint_span<unsigned> out) {
  auto idx = carbide::thread::index_1d<carbide::block_order::reversed>();
  if (unsigned* e = out.get_mut(idx)) *e = carbide::thread::block_idx().x;
}

// CUDA's vector types as view elements: one 16-byte load of a float4 and of a uint4 a thread,
// one 16-byte store, and a float2 through shared memory.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void vector_elements(carbide::span<const float4> points, carbide::span<const uint4> keys,
                     carbide::disjoint_span<float4> scaled, carbide::disjoint_span<float2> neighbours) {
  auto idx = carbide::thread::index_1d();
  auto pairs = carbide::block::shared<float2, kBlock>();
  const unsigned t = carbide::thread::thread_idx().x;
  const std::size_t i = idx.get();
  const float4 p = i < points.size() ? points[i] : make_float4(0.f, 0.f, 0.f, 0.f);
  pairs[t] = make_float2(p.x + p.y, p.z + p.w);
  carbide::block::sync();
  if (float4* s = scaled.get_mut(idx)) {
    const uint4 k = keys[i];
    *s = make_float4(p.x * float(k.x), p.y * float(k.y), p.z * float(k.z), p.w * float(k.w));
  }
  if (float2* n = neighbours.get_mut(idx)) *n = pairs[(t + 1) % kBlock];
}

// Constant tables: taps read at proven indexes (ld.const), a float4 palette at an index read from
// memory (checked), a gain, and a table no kernel reads (nvcc may leave it out of the image; setting
// it then changes nothing).
constexpr int kTableTaps = 9;
CARBIDE_CONSTANT float table_taps[kTableTaps];
CARBIDE_CONSTANT float4 palette[8];
CARBIDE_CONSTANT float table_gain;
CARBIDE_CONSTANT int unread_table[4];

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void constant_tables(carbide::span<const float> in, carbide::span<const unsigned> colours,
                     carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const std::size_t i = idx.get();
  float sum = 0.f;
  for (int j = 0; j < kTableTaps; ++j)
    if (i + j < in.size()) sum += table_taps[j] * in[i + j];
  if (float* o = out.get_mut(idx)) {
    const float4 c = palette[colours[i]];
    *o = table_gain * sum + c.x - c.w;
  }
}

// 64 KB of dynamic shared memory, past the 48 KB a launch gets without opting in: each block
// reverses its elements through the far end of it.
constexpr unsigned kLargeTileBytes = 64 * 1024;
constexpr unsigned kFarEnd = kLargeTileBytes / sizeof(float) - kBlock;
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1), dynamic_shared = kLargeTileBytes)
void reverse_through_dynamic(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  auto lid = carbide::thread::local_index();
  auto tile = carbide::block::dynamic_shared<float>();
  tile[lid.get() + kFarEnd] = idx.get() < in.size() ? in[idx.get()] : 0.f;
  carbide::block::sync();
  if (float* element = out.get_mut(idx)) *element = tile[kFarEnd + kBlock - 1 - lid.get()];
}

// Chunks of 4 (16-byte loads and stores) over a length that leaves a partial last chunk.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void add_one_chunked(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (auto mine = out.get_mut_chunk<4>(idx)) {
    carbide::vec<float, 4> values = in.chunk<4>(idx.get());
    for (int j = 0; j < 4; ++j) values[j] += 1.f;
    mine.store(values);
  }
}

// Reads `shift` elements ahead: past the end of `in` for the last threads when shift > 0.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void shifted_copy(carbide::span<const float> in, std::uint32_t shift, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* element = out.get_mut(idx)) *element = in[idx.get() + shift];
}

// A kernel template: each block writes its Block elements reversed and scaled, staged through a
// shared array of Block elements of T. The tests launch the two instances named below; the
// explicit instantiations are what gives them entries, as the launches are in other files.
template <class T, unsigned Block>
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (Block, 1, 1))
void reverse_scaled(carbide::disjoint_span<T> out, carbide::span<const T> in, T factor) {
  auto lid = carbide::thread::local_index();
  auto idx = carbide::thread::index_1d();
  auto staged = carbide::block::shared<T, Block>();
  staged[lid] = idx.get() < in.size() ? in[idx.get()] : T(0);
  carbide::block::sync();
  if (T* o = out.get_mut(idx)) *o = factor * staged[Block - 1 - lid.get()];
}
template void reverse_scaled<float, 256>(carbide::disjoint_span<float>, carbide::span<const float>, float);
template void reverse_scaled<double, 64>(carbide::disjoint_span<double>, carbide::span<const double>, double);

// A power-of-two merge over one block's 2·kBlock elements in shared memory, written into `out`:
// CARBIDE_REQUIRE states what the host promises (and lets the checker prove the pairs disjoint).
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void required_merge(carbide::disjoint_span<float> out, unsigned length) {
  CARBIDE_REQUIRE(length >= 2 && length <= 2 * kBlock && (length & (length - 1)) == 0);
  const unsigned t = carbide::thread::thread_idx().x;
  auto s = carbide::block::shared<float, 2 * kBlock>();
  s[t] = 1.f;
  s[t + kBlock] = 1.f;
  for (unsigned stride = length / 2; stride > 0; stride >>= 1) {
    carbide::block::sync();
    const unsigned pos = 2 * t - (t & (stride - 1));
    s[pos] += s[pos + stride];
  }
  carbide::block::sync();
  if (auto mine = out.get_mut_strided_chunks<1, 2>(carbide::thread::index_1d())) {
    mine.store(0, carbide::vec<float, 1>{{s[t]}});
    mine.store(1, carbide::vec<float, 1>{{s[t + kBlock]}});
  }
}

// Four floats per thread through whole chunks, `shift` chunks further on.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void shifted_whole_chunks(carbide::span<const float> in, std::uint32_t shift, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (auto mine = out.get_mut_chunk<4>(idx)) mine.store(in.whole_chunk<4>(idx.get() + shift));
}

// Pieces dealt out in turn across the block: every element of `out` gets its own index, and
// `writes` counts how many threads claimed it (exactly one each, partial last piece included).
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void strided_pieces(carbide::disjoint_span<float> out, carbide::atomic_span<unsigned> writes) {
  auto idx = carbide::thread::index_1d();
  if (auto mine = out.get_mut_strided_chunks<4, 3>(idx))
    for (int j = 0; j < 3; ++j) {
      carbide::vec<float, 4> values;
      for (int m = 0; m < 4; ++m) values[m] = float(mine.piece(j) * 4 + m);
      mine.store(j, values);
      for (int m = 0; m < mine.count(j); ++m) writes.fetch_add(mine.piece(j) * 4 + m, 1u);
    }
}

// One step of a Walsh-Hadamard transform in place: each thread's butterfly pair at `stride`
// becomes (a + b, a − b); `claims` counts the threads that owned each element (one each).
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void walsh_step(carbide::disjoint_span<float> data, unsigned stride, carbide::atomic_span<unsigned> claims) {
  auto idx = carbide::thread::index_1d();
  if (auto pair = data.get_mut_pair(idx, stride)) {
    const float a = pair.first(), b = pair.second();
    pair.first() = a + b;
    pair.second() = a - b;
    claims.fetch_add(pair.first_index(), 1u);
    claims.fetch_add(pair.second_index(), 1u);
  }
}

// A radix-4 Walsh stage in place through get_mut_radix<4>; `claims` as in walsh_step.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void walsh4_step(carbide::disjoint_span<float> data, unsigned stride, carbide::atomic_span<unsigned> claims) {
  auto idx = carbide::thread::index_1d();
  if (auto four = data.get_mut_radix<4>(idx, stride)) {
    const float a = four[0] + four[2], b = four[0] - four[2], c = four[1] + four[3], d = four[1] - four[3];
    four[0] = a + c;
    four[1] = a - c;
    four[2] = b + d;
    four[3] = b - d;
    for (int k = 0; k < 4; ++k) claims.fetch_add(four.index(k), 1u);
  }
}

// Strided pieces updated in place: each element of `data` doubled, loaded through the piece.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void double_strided(carbide::disjoint_span<float> data) {
  auto idx = carbide::thread::index_1d();
  if (auto mine = data.get_mut_strided_chunks<4, 3>(idx))
    for (int j = 0; j < 3; ++j) {
      carbide::vec<float, 4> values = mine.load(j);
      for (int m = 0; m < 4; ++m) values[m] *= 2.f;
      mine.store(j, values);
    }
}

// Halo blocks, one dimension: each 256-thread block loads its input tile with 3 elements of
// halo at each end, and its 250 inner threads write a 7-point sum; `writes` counts the writes.
constexpr int kStencilRadius = 3;
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void halo_stencil(carbide::span<const float> in, carbide::disjoint_span<float> out,
                  carbide::atomic_span<unsigned> writes) {
  auto own = carbide::thread::index_1d_halo<kStencilRadius>();
  auto tile = carbide::block::shared<float, kBlock>();
  const unsigned t = carbide::thread::thread_idx().x;
  const std::ptrdiff_t at = own.get();
  tile[t] = at >= 0 && std::size_t(at) < in.size() ? in[std::size_t(at)] : 0.f;
  carbide::block::sync();
  if (float* e = out.get_mut(own)) {
    float sum = 0.f;
    for (int k = 0; k <= 2 * kStencilRadius; ++k) sum += tile[t + k - kStencilRadius];
    *e = sum;
    writes.fetch_add(0, 1u);
  }
}

// Halo blocks, two dimensions: a 3 × 3 box sum whose 16 × 16 blocks load their input tile, halo
// included, and write from their 14 × 14 inner threads (PMPP's tiled convolution).
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void box_sum(carbide::span2d<const float> in, carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d_halo<1>();
  auto tile = carbide::block::shared<float, 16 * 16>();
  const unsigned tx = carbide::thread::thread_idx().x, ty = carbide::thread::thread_idx().y;
  const std::ptrdiff_t row = own.row(), col = own.col();
  const bool inside = row >= 0 && col >= 0 && std::size_t(row) < in.rows() && std::size_t(col) < in.cols();
  tile[ty * 16 + tx] = inside ? in(std::size_t(row), std::size_t(col)) : 0.f;
  carbide::block::sync();
  if (float* e = out.get_mut(own)) {
    float sum = 0.f;
    for (unsigned dy = 0; dy < 3; ++dy)
      for (unsigned dx = 0; dx < 3; ++dx) sum += tile[(ty + dy - 1) * 16 + tx + dx - 1];
    *e = sum;
  }
}

// Rows dealt out to the blocks in turn (block::grid_stride), with barriers inside the loop: each
// block tree-sums its rows in shared memory; thread 0 writes a row's sum, and the row's elements,
// doubled, are dealt out to the block's threads.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void row_sums(carbide::span<const float> in, unsigned rows, unsigned cols, carbide::disjoint_span<float> sums,
              carbide::disjoint_span<float> doubled) {
  auto lid = carbide::thread::local_index();
  auto partial = carbide::block::shared<float, kBlock>();
  for (auto&& row : carbide::block::grid_stride(rows)) {
    float sum = 0.f;
    for (unsigned c = lid.get(); c < cols; c += kBlock) sum += in[row.get() * cols + c];
    partial[lid.get()] = sum;
    for (unsigned s = kBlock / 2; s > 0; s >>= 1) {
      carbide::block::sync();
      if (lid.get() < s) partial[lid.get()] += partial[lid.get() + s];
    }
    carbide::block::sync();
    if (float* total = sums.get_mut_block(lid, row)) *total = partial[0];
    if (auto mine = doubled.get_mut_block_region(lid, cols, row))
      for (unsigned k = 0; k < mine.count(); ++k) mine[k] = 2.f * in[row.get() * cols + mine.index(k)];
  }
}

// Block outputs on a 2-D grid of 96-thread blocks: each block's region of 100 elements dealt
// out to its threads, and each block's one total written by its thread 0; `claims` counts the
// threads that reached each element.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 3, 1))
void block_outputs(carbide::disjoint_span<float> regions, carbide::disjoint_span<float> totals,
                   carbide::atomic_span<unsigned> claims) {
  auto lid = carbide::thread::local_index();
  if (auto mine = regions.get_mut_block_region(lid, 100))
    for (unsigned k = 0; k < mine.count(); ++k) {
      mine[k] = float(mine.index(k));
      claims.fetch_add(0, 1u);
    }
  if (float* total = totals.get_mut_block(lid)) *total = float(lid.get() + 1);
}

// The 2-D form: a 3 × 2 strided tile per thread of a 16 × 8 block, edges cut in both directions;
// column 0 stored element by element, column 1 as a whole column.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 8, 1))
void strided_tiles(carbide::disjoint_span2d<float> out, carbide::atomic_span<unsigned> writes) {
  auto at = carbide::thread::index_2d();
  if (auto mine = out.get_mut_strided_tile<3, 2>(at)) {
    carbide::vec<float, 3> column;
    for (int i = 0; i < 3; ++i) {
      mine.store(i, 0, float(mine.row(i) * 1000 + mine.col(0)));
      column[i] = float(mine.row(i) * 1000 + mine.col(1));
      for (int j = 0; j < 2; ++j)
        if (mine.row(i) < out.rows() && mine.col(j) < out.cols())
          writes.fetch_add(mine.row(i) * out.cols() + mine.col(j), 1u);
    }
    mine.store_column(1, column);
  }
}

// The textbook transpose's block order (cuda-samples transposeNoBankConflicts): block (bx, by)
// reads the 32 × 32 input tile at its own coordinates and writes the output tile at its
// transposed ones through index_2d_transposed(), four rows per thread eight apart; `writes`
// counts the stores of each output element.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1))
void transposed_tiles(carbide::span2d<const float> in, carbide::disjoint_span2d<float> out,
                      carbide::atomic_span<unsigned> writes) {
  auto tile = carbide::block::shared<float, 32 * 33>();
  const unsigned tx = carbide::thread::thread_idx().x, ty = carbide::thread::thread_idx().y;
  const std::size_t col = std::size_t(carbide::thread::block_idx().x) * 32 + tx;
  for (unsigned j = 0; j < 32; j += 8) {
    const std::size_t row = std::size_t(carbide::thread::block_idx().y) * 32 + ty + j;
    if (row < in.rows() && col < in.cols()) tile[(ty + j) * 33 + tx] = in(row, col);
  }
  carbide::block::sync();
  if (auto mine = out.get_mut_strided_tile<4, 1>(carbide::thread::index_2d_transposed())) {
    for (int i = 0; i < 4; ++i) {
      mine.store(i, 0, tile[tx * 33 + ty + 8 * i]);
      if (mine.row(i) < out.rows() && mine.col(0) < out.cols())
        writes.fetch_add(mine.row(i) * out.cols() + mine.col(0), 1u);
    }
  }
}

// The one-element form at transposed block coordinates, in a block of 16 × 4 threads: each
// element gets its own (row, col) written into it.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 4, 1))
void transposed_elements(carbide::disjoint_span2d<float> out) {
  auto at = carbide::thread::index_2d_transposed();
  if (float* e = out.get_mut(at)) *e = float(at.row() * 1000 + at.col());
}

// Records through views: a user struct and its helper from a header, read and written whole.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void advance_particles(carbide::span<const Particle> in, float dt, carbide::disjoint_span<Particle> out) {
  auto idx = carbide::thread::index_1d();
  if (Particle* p = out.get_mut(idx)) *p = advanced(in[idx.get()], dt);
}

// CUDA's intrinsics, written as in CUDA: the device runs CUDA's own, the host test compares
// them with <carbide/intrinsics.hpp>'s host definitions.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void fast_math(carbide::span<const float> x, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) {
    const float v = x[idx.get()];
    *o = __fdividef(__expf(v), rsqrtf(v)) + __saturatef(v - 1.f) + __sinf(v) + __logf(v) +
         __frcp_rn(v) + __int_as_float(__float_as_int(v));
  }
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void integer_intrinsics(carbide::span<const unsigned> u, carbide::disjoint_span<unsigned> out) {
  auto idx = carbide::thread::index_1d();
  if (unsigned* o = out.get_mut(idx)) {
    const unsigned v = u[idx.get()];
    *o = (unsigned(__popc(v)) + 33u * unsigned(__clz(int(v))) + 1089u * unsigned(__ffs(int(v)))) ^
         __brev(v) ^ __umulhi(v, 0x9E3779B9u) ^ __umul24(v, 77u) ^ unsigned(__mul24(int(v), -3));
  }
}

// Checks that cost nothing (issue 12). store_whole: one vector store per chunk, no partial path;
// the launch refused any `out` that is not whole chunks of 4.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void scale_whole_chunks(carbide::span<const float> in, carbide::disjoint_span<float> out, float a) {
  auto idx = carbide::thread::index_1d();
  if (auto mine = out.get_mut_chunk<4>(idx)) {
    carbide::vec<float, 4> v = in.whole_chunk<4>(idx.get());
    for (int j = 0; j < 4; ++j) v[j] *= a;
    mine.store_whole(v);
  }
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void scale_strided_whole_chunks(carbide::span<const float> in, carbide::disjoint_span<float> out, float a) {
  if (auto mine = out.get_mut_strided_chunks<4, 2>(carbide::thread::index_1d()))
    for (int j = 0; j < 2; ++j)
      if (mine.count(j) > 0) {
        carbide::vec<float, 4> v = in.whole_chunk<4>(mine.piece(j));
        for (int k = 0; k < 4; ++k) v[k] *= a;
        mine.store_whole(j, v);
      }
}

// index_bits = 32: indexes computed in 32 bits; the launch refused views of 2^32 elements or more
// and grids of more than 2^32 threads along an axis.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1), index_bits = 32)
void axpy_32(carbide::span<const float> x, carbide::disjoint_span<float> y, float a) {
  auto idx = carbide::thread::index_1d();
  if (float* e = y.get_mut(idx)) *e = a * x[idx.get()] + *e;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1), index_bits = 32)
void transpose_32(carbide::span2d<const float> in, carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d_transposed();
  if (float* e = out.get_mut(own)) *e = in(own.col(), own.row());
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1), index_bits = 32)
void count_nonzero_32(carbide::span<const unsigned char> bytes, carbide::atomic_span<unsigned> count) {
  unsigned mine = 0;
  for (auto w : carbide::thread::grid_stride(bytes)) mine += bytes[w.get()] != 0;
  count.fetch_add(0, mine);
}

// covers = a: the launch gives the grid exactly a.size() threads, so a[idx.get()] is unchecked.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1), covers = a)
void double_covered(carbide::span<const float> a, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* e = out.get_mut(idx)) *e = 2.f * a[idx.get()];
}

// Span reads proven in range (the loop tests i against in.size()) are emitted unchecked.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kBlock, 1, 1))
void window_sums(carbide::span<const float> in, carbide::disjoint_span<float> out, unsigned width) {
  auto idx = carbide::thread::index_1d();
  float sum = 0.f;
  for (std::size_t i = idx.get(); i < in.size() && i < idx.get() + width; ++i) sum += in[i];
  if (float* e = out.get_mut(idx)) *e = sum;
}

}  // namespace gpu_vocabulary

namespace gpu_tiles {

namespace ct = carbide::tile;

// Rows scaled by a row of weights every block reads at a constant tile index: the stub runs the
// entry without edge tests when x, y and w hold every tile whole, the masked one otherwise.
CARBIDE_TILE_KERNEL
void scale_rows(ct::out<float, ct::shape<1, 512>> y, ct::in<float, 2> x, ct::in<float, 2> w) {
  auto pw = w.partition(ct::shape<1, 512>{});
  y.store(ct::load_like(x, y) * pw.load(0, 0));
}

}  // namespace gpu_tiles
