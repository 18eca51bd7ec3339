// The kernels of cpu_kernels.hpp. Each is shown as its user wrote it, then as its CPU form.
#include "cpu_kernels.hpp"

#include <carbide/tile.hpp>

#include <cstring>

namespace cpu_kernels {

using carbide::cpu::Access;
using carbide::cpu::at;
using carbide::cpu::ParamKind;
using carbide::cpu::touch;

namespace {

template <class T>
T argument(void* const* args, unsigned i) {
  T value;
  std::memcpy(&value, args[i], sizeof value);
  return value;
}

constexpr std::size_t kFloatView = sizeof(carbide::span<const float>);
constexpr std::size_t kUnsignedView = sizeof(carbide::span<const unsigned>);

// --- vecadd: c[i] = a[i] + b[i] ------------------------------------------------------------------

void vecadd_kernel(carbide::span<const float> a, carbide::span<const float> b, carbide::disjoint_span<float> c) {
  at(__FILE__, __LINE__); auto idx = carbide::thread::index_1d();
  at(__FILE__, __LINE__); if (float* c_elem = c.get_mut(idx)) {
    at(__FILE__, __LINE__); touch(Access::Write, __FILE__, __LINE__, *c_elem) = a[idx.get()] + b[idx.get()];
  }
}
constexpr unsigned vecadd_write_line = __LINE__ - 3;

void vecadd_thread(void* const* args) {
  vecadd_kernel(argument<carbide::span<const float>>(args, 0), argument<carbide::span<const float>>(args, 1),
                argument<carbide::disjoint_span<float>>(args, 2));
}

constexpr carbide::cpu::ParamInfo vecadd_params[] = {
    {"a", kFloatView, ParamKind::View, sizeof(float)},
    {"b", kFloatView, ParamKind::View, sizeof(float)},
    {"c", kFloatView, ParamKind::View, sizeof(float)}};

// --- reduce_shared: a tree reduction of each block's 256 elements in shared memory; the leader
// writes the block's sum, and every thread then divides its element by it (a broadcast read) --

void reduce_shared_kernel(carbide::span<const float> in, carbide::disjoint_span<float> partial,
                          carbide::disjoint_span<float> share) {
  at(__FILE__, __LINE__); auto idx = carbide::thread::index_1d();
  at(__FILE__, __LINE__); auto lid = carbide::thread::local_index();
  at(__FILE__, __LINE__); auto tile = carbide::block::shared_at<float, 256, 1>();
  at(__FILE__, __LINE__); touch(Access::Write, __FILE__, __LINE__, tile[lid]) = idx.get() < in.size() ? in[idx.get()] : 0.f;
  at(__FILE__, __LINE__); carbide::block::sync();
  for (unsigned s = 128; s > 0; s >>= 1) {
    at(__FILE__, __LINE__); if (lid.get() < s) touch(Access::ReadWrite, __FILE__, __LINE__, tile[lid]) += touch(Access::Read, __FILE__, __LINE__, tile[lid.get() + s]);
    at(__FILE__, __LINE__); carbide::block::sync();
    carbide::cpu::tick(__FILE__, __LINE__);
  }
  at(__FILE__, __LINE__); if (float* out = partial.get_mut_block(lid)) touch(Access::Write, __FILE__, __LINE__, *out) = touch(Access::Read, __FILE__, __LINE__, tile[0]);
  at(__FILE__, __LINE__); if (float* mine = share.get_mut(idx))
    touch(Access::Write, __FILE__, __LINE__, *mine) = in[idx.get()] / touch(Access::Read, __FILE__, __LINE__, tile[0]);
}

void reduce_shared_thread(void* const* args) {
  reduce_shared_kernel(argument<carbide::span<const float>>(args, 0), argument<carbide::disjoint_span<float>>(args, 1),
                       argument<carbide::disjoint_span<float>>(args, 2));
}

constexpr carbide::cpu::ParamInfo reduce_shared_params[] = {
    {"in", kFloatView, ParamKind::View, sizeof(float)},
    {"partial", kFloatView, ParamKind::View, sizeof(float)},
    {"share", kFloatView, ParamKind::View, sizeof(float)}};
constexpr carbide::cpu::SharedSite reduce_shared_sites[] = {{1, "tile", sizeof(float)}};

// --- warp_sums: every warp collective on each thread's value ------------------------------------

void warp_sums_kernel(carbide::span<const float> in, carbide::disjoint_span<float> total, carbide::disjoint_span<float> down,
                      carbide::disjoint_span<float> scan, carbide::disjoint_span<unsigned> votes) {
  at(__FILE__, __LINE__); auto idx = carbide::thread::index_1d();
  at(__FILE__, __LINE__); const float v = in[idx.get()];
  at(__FILE__, __LINE__); const float sum = carbide::warp::reduce_add(v);
  at(__FILE__, __LINE__); float below = v;
  for (unsigned delta = 16; delta > 0; delta >>= 1) {
    at(__FILE__, __LINE__); below += carbide::warp::shfl_down(below, delta);
    carbide::cpu::tick(__FILE__, __LINE__);
  }
  at(__FILE__, __LINE__); const float prefix = carbide::warp::inclusive_scan_add(v);
  at(__FILE__, __LINE__); const unsigned ballot = carbide::warp::ballot(v > 0.5f);
  at(__FILE__, __LINE__); const bool any = carbide::warp::any(v > 0.5f);
  at(__FILE__, __LINE__); const bool all = carbide::warp::all(v > 0.5f);
  at(__FILE__, __LINE__); if (float* e = total.get_mut(idx)) touch(Access::Write, __FILE__, __LINE__, *e) = sum;
  at(__FILE__, __LINE__); if (float* e = down.get_mut(idx)) touch(Access::Write, __FILE__, __LINE__, *e) = below;
  at(__FILE__, __LINE__); if (float* e = scan.get_mut(idx)) touch(Access::Write, __FILE__, __LINE__, *e) = prefix;
  at(__FILE__, __LINE__); if (unsigned* e = votes.get_mut(idx)) touch(Access::Write, __FILE__, __LINE__, *e) = ballot ^ (any ? 1u << 31 : 0u) ^ (all ? 1u << 30 : 0u);
}

void warp_sums_thread(void* const* args) {
  warp_sums_kernel(argument<carbide::span<const float>>(args, 0), argument<carbide::disjoint_span<float>>(args, 1),
                   argument<carbide::disjoint_span<float>>(args, 2), argument<carbide::disjoint_span<float>>(args, 3),
                   argument<carbide::disjoint_span<unsigned>>(args, 4));
}

constexpr carbide::cpu::ParamInfo warp_sums_params[] = {
    {"in", kFloatView, ParamKind::View, sizeof(float)},
    {"total", kFloatView, ParamKind::View, sizeof(float)},
    {"down", kFloatView, ParamKind::View, sizeof(float)},
    {"scan", kFloatView, ParamKind::View, sizeof(float)},
    {"votes", kUnsignedView, ParamKind::View, sizeof(unsigned)}};

// --- histogram: a privatized histogram, shared atomics then global ones ------------------------

void histogram_kernel(carbide::span<const unsigned> values, carbide::atomic_span<unsigned> bins) {
  at(__FILE__, __LINE__); auto lid = carbide::thread::local_index();
  at(__FILE__, __LINE__); auto local = carbide::block::shared_at<unsigned, kHistogramBins, 2>();
  at(__FILE__, __LINE__); if (lid.get() < kHistogramBins) touch(Access::Write, __FILE__, __LINE__, local[lid]) = 0;
  at(__FILE__, __LINE__); carbide::block::sync();
  for (auto&& i : carbide::thread::grid_stride(values)) {
    at(__FILE__, __LINE__); local.fetch_add(values[i.get()] % kHistogramBins, 1u);
    carbide::cpu::tick(__FILE__, __LINE__);
  }
  at(__FILE__, __LINE__); carbide::block::sync();
  at(__FILE__, __LINE__); if (lid.get() < kHistogramBins) bins.fetch_add(lid.get(), touch(Access::Read, __FILE__, __LINE__, local[lid]));
}

void histogram_thread(void* const* args) {
  histogram_kernel(argument<carbide::span<const unsigned>>(args, 0), argument<carbide::atomic_span<unsigned>>(args, 1));
}

constexpr carbide::cpu::ParamInfo histogram_params[] = {
    {"values", kUnsignedView, ParamKind::View, sizeof(unsigned)},
    {"bins", kUnsignedView, ParamKind::View, sizeof(unsigned)}};
constexpr carbide::cpu::SharedSite histogram_sites[] = {{2, "local", sizeof(unsigned)}};

// --- transpose: 32 x 32 tiles through a shared tile padded to 33 columns -----------------------

void transpose_kernel(carbide::span2d<const float> in, carbide::disjoint_span2d<float> out) {
  at(__FILE__, __LINE__); auto tile = carbide::block::shared_at<float, 32 * 33, 3>();
  at(__FILE__, __LINE__); const auto t = carbide::thread::thread_idx();
  at(__FILE__, __LINE__); const auto b = carbide::thread::block_idx();
  at(__FILE__, __LINE__); const std::size_t row = b.y * 32 + t.y, col = b.x * 32 + t.x;
  at(__FILE__, __LINE__); if (row < in.rows() && col < in.cols()) touch(Access::Write, __FILE__, __LINE__, tile[t.y * 33 + t.x]) = in(row, col);
  at(__FILE__, __LINE__); carbide::block::sync();
  at(__FILE__, __LINE__); auto w = carbide::thread::index_2d_transposed();
  at(__FILE__, __LINE__); if (float* e = out.get_mut(w)) touch(Access::Write, __FILE__, __LINE__, *e) = touch(Access::Read, __FILE__, __LINE__, tile[t.x * 33 + t.y]);
}

void transpose_thread(void* const* args) {
  transpose_kernel(argument<carbide::span2d<const float>>(args, 0), argument<carbide::disjoint_span2d<float>>(args, 1));
}

constexpr carbide::cpu::ParamInfo transpose_params[] = {
    {"in", sizeof(carbide::span2d<const float>), ParamKind::ReadView2D, sizeof(float)},
    {"out", sizeof(carbide::disjoint_span2d<float>), ParamKind::View2D, sizeof(float)}};
constexpr carbide::cpu::SharedSite transpose_sites[] = {{3, "tile", sizeof(float)}};

// --- halves: neighbouring 16-bit elements written by neighbouring threads, in shared memory and
// in a buffer: granules no larger than an element, so no false race -----------------------------

void halves_kernel(carbide::disjoint_span<std::uint16_t> out) {
  at(__FILE__, __LINE__); auto idx = carbide::thread::index_1d();
  at(__FILE__, __LINE__); auto lid = carbide::thread::local_index();
  at(__FILE__, __LINE__); auto pairs = carbide::block::shared_at<std::uint16_t, 128, 4>();
  at(__FILE__, __LINE__); touch(Access::Write, __FILE__, __LINE__, pairs[lid]) = std::uint16_t(lid.get() * 3);
  at(__FILE__, __LINE__); carbide::block::sync();
  at(__FILE__, __LINE__); if (std::uint16_t* e = out.get_mut(idx)) touch(Access::Write, __FILE__, __LINE__, *e) = touch(Access::Read, __FILE__, __LINE__, pairs[lid.get() ^ 1]);
}

void halves_thread(void* const* args) { halves_kernel(argument<carbide::disjoint_span<std::uint16_t>>(args, 0)); }

constexpr carbide::cpu::ParamInfo halves_params[] = {
    {"out", sizeof(carbide::disjoint_span<std::uint16_t>), ParamKind::View, sizeof(std::uint16_t)}};
constexpr carbide::cpu::SharedSite halves_sites[] = {{4, "pairs", sizeof(std::uint16_t)}};

// --- dynamic_scale: the launch's dynamic shared memory, as floats -------------------------------

void dynamic_scale_kernel(carbide::span<const float> in, carbide::disjoint_span<float> out, float factor) {
  at(__FILE__, __LINE__); auto idx = carbide::thread::index_1d();
  at(__FILE__, __LINE__); auto lid = carbide::thread::local_index();
  at(__FILE__, __LINE__); auto staged = carbide::block::dynamic_shared<float>();
  at(__FILE__, __LINE__); touch(Access::Write, __FILE__, __LINE__, staged[lid]) = in[idx.get()] * factor;
  at(__FILE__, __LINE__); carbide::block::sync();
  at(__FILE__, __LINE__); if (float* e = out.get_mut(idx)) touch(Access::Write, __FILE__, __LINE__, *e) = touch(Access::Read, __FILE__, __LINE__, staged[staged.size() - 1 - lid.get()]);
}

void dynamic_scale_thread(void* const* args) {
  dynamic_scale_kernel(argument<carbide::span<const float>>(args, 0), argument<carbide::disjoint_span<float>>(args, 1),
                       argument<float>(args, 2));
}

constexpr carbide::cpu::ParamInfo dynamic_scale_params[] = {
    {"in", kFloatView, ParamKind::View, sizeof(float)},
    {"out", kFloatView, ParamKind::View, sizeof(float)},
    {"factor", sizeof(float), ParamKind::Scalar, 0}};

// --- shared_race: each thread writes its slot and reads its neighbour's, with no barrier between -

void shared_race_kernel(carbide::disjoint_span<float> out) {
  at(__FILE__, __LINE__); auto idx = carbide::thread::index_1d();
  at(__FILE__, __LINE__); auto lid = carbide::thread::local_index();
  at(__FILE__, __LINE__); auto slots = carbide::block::shared_at<float, 64, 5>();
  at(__FILE__, __LINE__); touch(Access::Write, __FILE__, __LINE__, slots[lid]) = float(lid.get());
  at(__FILE__, __LINE__); const float next = touch(Access::Read, __FILE__, __LINE__, slots[(lid.get() + 1) % 64]);
  at(__FILE__, __LINE__); carbide::block::sync();
  at(__FILE__, __LINE__); if (float* e = out.get_mut(idx)) touch(Access::Write, __FILE__, __LINE__, *e) = next;
}
constexpr unsigned shared_race_write_line = __LINE__ - 5;
constexpr unsigned shared_race_read_line = __LINE__ - 5;

void shared_race_thread(void* const* args) { shared_race_kernel(argument<carbide::disjoint_span<float>>(args, 0)); }

constexpr carbide::cpu::ParamInfo out_only_params[] = {{"out", kFloatView, ParamKind::View, sizeof(float)}};
constexpr carbide::cpu::SharedSite shared_race_sites[] = {{5, "slots", sizeof(float)}};

// --- global_race: in CARBIDE_UNSAFE code, thread 0 of every block writes element 0 through a raw
// pointer stepped back from its own element ------------------------------------------------------

void global_race_kernel(carbide::disjoint_span<float> out) {
  at(__FILE__, __LINE__); auto idx = carbide::thread::index_1d();
  at(__FILE__, __LINE__); auto lid = carbide::thread::local_index();
  CARBIDE_UNSAFE("the test plants a race between blocks") {
    at(__FILE__, __LINE__); if (float* e = out.get_mut(idx); e != nullptr && lid.get() == 0) touch(Access::Write, __FILE__, __LINE__, *(e - idx.get())) = float(idx.get());
  }
}
constexpr unsigned global_race_line = __LINE__ - 3;

void global_race_thread(void* const* args) { global_race_kernel(argument<carbide::disjoint_span<float>>(args, 0)); }

// --- read_next: out[i] = a[i + 1], one past the end for the last thread --------------------------

void read_next_kernel(carbide::span<const float> a, carbide::disjoint_span<float> out) {
  at(__FILE__, __LINE__); auto idx = carbide::thread::index_1d();
  at(__FILE__, __LINE__); if (float* e = out.get_mut(idx)) touch(Access::Write, __FILE__, __LINE__, *e) = a[idx.get() + 1];
}
constexpr unsigned read_next_line = __LINE__ - 2;

void read_next_thread(void* const* args) {
  read_next_kernel(argument<carbide::span<const float>>(args, 0), argument<carbide::disjoint_span<float>>(args, 1));
}

constexpr carbide::cpu::ParamInfo in_out_params[] = {
    {"a", kFloatView, ParamKind::View, sizeof(float)},
    {"out", kFloatView, ParamKind::View, sizeof(float)}};

// --- divergent_barrier: the upper half of the block returns before the barrier ------------------

void divergent_barrier_kernel(carbide::disjoint_span<float> out) {
  at(__FILE__, __LINE__); auto lid = carbide::thread::local_index();
  at(__FILE__, __LINE__); if (lid.get() >= 128) return;
  at(__FILE__, __LINE__); carbide::block::sync();
  at(__FILE__, __LINE__); if (float* e = out.get_mut_block(lid)) touch(Access::Write, __FILE__, __LINE__, *e) = 1.f;
}
constexpr unsigned divergent_barrier_line = __LINE__ - 3;

void divergent_barrier_thread(void* const* args) {
  divergent_barrier_kernel(argument<carbide::disjoint_span<float>>(args, 0));
}

// --- missing_lanes: lanes 16 to 31 return before a shuffle ----------------------------------------

void missing_lanes_kernel(carbide::disjoint_span<float> out) {
  at(__FILE__, __LINE__); auto idx = carbide::thread::index_1d();
  at(__FILE__, __LINE__); auto lane = carbide::thread::lane();
  at(__FILE__, __LINE__); if (lane.get() >= 16) return;
  at(__FILE__, __LINE__); const float v = carbide::warp::shfl_down(float(lane.get()), 1);
  at(__FILE__, __LINE__); if (float* e = out.get_mut(idx)) touch(Access::Write, __FILE__, __LINE__, *e) = v;
}
constexpr unsigned missing_lanes_line = __LINE__ - 3;

void missing_lanes_thread(void* const* args) { missing_lanes_kernel(argument<carbide::disjoint_span<float>>(args, 0)); }

// --- spin: a loop that never ends ---------------------------------------------------------------

void spin_kernel(carbide::disjoint_span<float>) {
  at(__FILE__, __LINE__); while (true) carbide::cpu::tick(__FILE__, __LINE__);
}
constexpr unsigned spin_line = __LINE__ - 2;

void spin_thread(void* const* args) { spin_kernel(argument<carbide::disjoint_span<float>>(args, 0)); }

// --- plain_sync: a kernel with a barrier whose entry says it has none -----------------------------

void plain_sync_kernel(carbide::disjoint_span<float>) {
  at(__FILE__, __LINE__); carbide::block::sync();
}
constexpr unsigned plain_sync_line = __LINE__ - 2;

void plain_sync_thread(void* const* args) { plain_sync_kernel(argument<carbide::disjoint_span<float>>(args, 0)); }

// --- memcpy_race: every thread of the block copies into element 0 -------------------------------

void memcpy_race_kernel(carbide::span<const float> a, carbide::disjoint_span<float> out) {
  at(__FILE__, __LINE__); auto idx = carbide::thread::index_1d();
  CARBIDE_UNSAFE("the test plants a race through memcpy") {
    at(__FILE__, __LINE__); if (float* e = out.get_mut(idx)) carbide::cpu::memcpy(e - idx.get(), a.data() + idx.get(), sizeof(float), __FILE__, __LINE__);
  }
}
constexpr unsigned memcpy_race_line = __LINE__ - 3;

void memcpy_race_thread(void* const* args) {
  memcpy_race_kernel(argument<carbide::span<const float>>(args, 0), argument<carbide::disjoint_span<float>>(args, 1));
}

// --- tile_double: a tile kernel, y = 2 x in tiles of 128 ----------------------------------------

namespace ct = carbide::tile;
void tile_double_block(void* const* args, std::uint64_t block) {
  const auto x = argument<ct::detail::in_arg<float, 1>>(args, 0);
  const auto y = argument<ct::detail::out_arg<float, 1>>(args, 1);
  const std::int64_t first = std::int64_t(block) * 128;
  for (std::int64_t i = first; i < first + 128 && i < y.extent[0]; ++i) y.data[i] = 2 * x.data[i];
}

constexpr carbide::cpu::ParamInfo tile_double_params[] = {
    {"x", sizeof(ct::detail::in_arg<float, 1>), ParamKind::TileInput, sizeof(float)},
    {"y", sizeof(ct::detail::out_arg<float, 1>), ParamKind::TileOutput, sizeof(float)}};

// --- forms: the remaining forms of the vocabulary, each writing what tells it worked ---------------

// out1[i] = 2 in[i] through 4-element chunks; out2 through strided pieces of 2 (2 a thread); out3[i]
// = i through the 32-bit witness.
void chunks_kernel(carbide::span<const float> in, carbide::disjoint_span<float> out1, carbide::disjoint_span<float> out2,
                   carbide::disjoint_span<float> out3) {
  at(__FILE__, __LINE__); auto idx = carbide::thread::index_1d();
  at(__FILE__, __LINE__); if (auto c = out1.get_mut_chunk<4>(idx)) {
    at(__FILE__, __LINE__); carbide::vec<float, 4> v = in.chunk<4>(idx.get());
    for (int j = 0; j < 4; ++j) { at(__FILE__, __LINE__); v[j] *= 2; }
    at(__FILE__, __LINE__); c.store(v);
    at(__FILE__, __LINE__); touch(Access::ReadWrite, __FILE__, __LINE__, c[0]) += 0.f;
  }
  at(__FILE__, __LINE__); if (auto pieces = out2.get_mut_strided_chunks<2, 2>(idx)) {
    for (int j = 0; j < 2 && pieces.count(j) > 0; ++j) {
      at(__FILE__, __LINE__); carbide::vec<float, 2> v = in.chunk<2>(pieces.piece(j));
      at(__FILE__, __LINE__); pieces.store(j, {{2 * v[0], 2 * v[1]}});
    }
  }
  at(__FILE__, __LINE__); auto narrow = carbide::detail::index_1d_32();
  at(__FILE__, __LINE__); if (float* e = out3.get_mut(narrow)) touch(Access::Write, __FILE__, __LINE__, *e) = float(narrow.get());
}
void chunks_thread(void* const* args) {
  chunks_kernel(argument<carbide::span<const float>>(args, 0), argument<carbide::disjoint_span<float>>(args, 1),
                argument<carbide::disjoint_span<float>>(args, 2), argument<carbide::disjoint_span<float>>(args, 3));
}
constexpr carbide::cpu::ParamInfo chunks_params[] = {
    {"in", kFloatView, ParamKind::View, sizeof(float)}, {"out1", kFloatView, ParamKind::View, sizeof(float)},
    {"out2", kFloatView, ParamKind::View, sizeof(float)}, {"out3", kFloatView, ParamKind::View, sizeof(float)}};

// pairs[i] = i through butterfly pairs at stride 2, quads[i] = i through radix-4 groups at stride 4.
void butterflies_kernel(carbide::disjoint_span<float> pairs, carbide::disjoint_span<float> quads) {
  at(__FILE__, __LINE__); auto idx = carbide::thread::index_1d();
  at(__FILE__, __LINE__); if (auto p = pairs.get_mut_pair(idx, 2)) {
    at(__FILE__, __LINE__); touch(Access::Write, __FILE__, __LINE__, p.first()) = float(p.first_index());
    at(__FILE__, __LINE__); touch(Access::Write, __FILE__, __LINE__, p.second()) = float(p.second_index());
  }
  at(__FILE__, __LINE__); if (auto r = quads.get_mut_radix<4>(idx, 4)) {
    for (int k = 0; k < 4; ++k) { at(__FILE__, __LINE__); touch(Access::Write, __FILE__, __LINE__, r[k]) = float(r.index(k)); }
  }
}
void butterflies_thread(void* const* args) {
  butterflies_kernel(argument<carbide::disjoint_span<float>>(args, 0), argument<carbide::disjoint_span<float>>(args, 1));
}
constexpr carbide::cpu::ParamInfo butterflies_params[] = {{"pairs", kFloatView, ParamKind::View, sizeof(float)},
                                                          {"quads", kFloatView, ParamKind::View, sizeof(float)}};

// regions: each block's 100 elements, dealt out to its threads, get the block's number; rows: row r
// of a block-stride loop gets r, written by the block's leader.
void regions_kernel(carbide::disjoint_span<float> regions, carbide::disjoint_span<float> rows) {
  at(__FILE__, __LINE__); auto lid = carbide::thread::local_index();
  at(__FILE__, __LINE__); if (auto mine = regions.get_mut_block_region(lid, 100)) {
    for (unsigned k = 0; k < mine.count(); ++k) {
      at(__FILE__, __LINE__); touch(Access::Write, __FILE__, __LINE__, mine[k]) = float(carbide::thread::block_idx().x);
    }
  }
  for (auto&& row : carbide::block::grid_stride(rows.size())) {
    at(__FILE__, __LINE__); if (float* e = rows.get_mut_block(lid, row)) touch(Access::Write, __FILE__, __LINE__, *e) = float(row.get());
  }
}
void regions_thread(void* const* args) {
  regions_kernel(argument<carbide::disjoint_span<float>>(args, 0), argument<carbide::disjoint_span<float>>(args, 1));
}
constexpr carbide::cpu::ParamInfo regions_params[] = {{"regions", kFloatView, ParamKind::View, sizeof(float)},
                                                      {"rows", kFloatView, ParamKind::View, sizeof(float)}};

// out[i] = in[i - 1] + in[i] + in[i + 1] (zero past the ends), through a shared tile with a halo of 1.
void halo_kernel(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  at(__FILE__, __LINE__); auto h = carbide::thread::index_1d_halo<1>();
  at(__FILE__, __LINE__); auto lid = carbide::thread::local_index();
  at(__FILE__, __LINE__); auto tile = carbide::block::shared_at<float, 64, 6>();
  at(__FILE__, __LINE__); touch(Access::Write, __FILE__, __LINE__, tile[lid]) = h.get() >= 0 && std::size_t(h.get()) < in.size() ? in[std::size_t(h.get())] : 0.f;
  at(__FILE__, __LINE__); carbide::block::sync();
  at(__FILE__, __LINE__); if (float* e = out.get_mut(h)) touch(Access::Write, __FILE__, __LINE__, *e) = touch(Access::Read, __FILE__, __LINE__, tile[lid.get() - 1]) + touch(Access::Read, __FILE__, __LINE__, tile[lid]) + touch(Access::Read, __FILE__, __LINE__, tile[lid.get() + 1]);
}
void halo_thread(void* const* args) {
  halo_kernel(argument<carbide::span<const float>>(args, 0), argument<carbide::disjoint_span<float>>(args, 1));
}
constexpr carbide::cpu::SharedSite halo_sites[] = {{6, "tile", sizeof(float)}};

// grid[r][c] = 100 r + c, through 2 x 4 tiles (rows stored whole, one element by index) and, in
// `strided`, through 2 x 2 strided tiles (stored, then loaded and stored again).
void tiles_kernel(carbide::disjoint_span2d<float> grid, carbide::disjoint_span2d<float> strided) {
  at(__FILE__, __LINE__); auto w = carbide::thread::index_2d();
  at(__FILE__, __LINE__); if (auto t = grid.get_mut_tile<2, 4>(w)) {
    for (int i = 0; i < t.rows(); ++i) {
      at(__FILE__, __LINE__); const std::size_t r = w.row() * 2 + i, c = w.col() * 4;
      at(__FILE__, __LINE__); t.store_row(i, {{float(100 * r + c), float(100 * r + c + 1), float(100 * r + c + 2), float(100 * r + c + 3)}});
    }
    at(__FILE__, __LINE__); touch(Access::Write, __FILE__, __LINE__, t(0, 0)) = float(100 * w.row() * 2 + w.col() * 4);
  }
  at(__FILE__, __LINE__); if (auto s = strided.get_mut_strided_tile<2, 2>(w)) {
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) { at(__FILE__, __LINE__); s.store(i, j, float(100 * s.row(i) + s.col(j))); }
    at(__FILE__, __LINE__); s.store(1, 1, s.load(1, 1));
  }
}
void tiles_thread(void* const* args) {
  tiles_kernel(argument<carbide::disjoint_span2d<float>>(args, 0), argument<carbide::disjoint_span2d<float>>(args, 1));
}
constexpr carbide::cpu::ParamInfo tiles_params[] = {
    {"grid", sizeof(carbide::disjoint_span2d<float>), ParamKind::View2D, sizeof(float)},
    {"strided", sizeof(carbide::disjoint_span2d<float>), ParamKind::View2D, sizeof(float)}};

}  // namespace

const carbide::cpu::KernelEntry chunks = {"cpu_kernels::chunks", chunks_thread, chunks_params, 4, nullptr, 0, 0, false,
                                          &carbide::cpu::run_threads<chunks_thread>};
const carbide::cpu::KernelEntry butterflies = {"cpu_kernels::butterflies", butterflies_thread, butterflies_params, 2, nullptr,
                                               0, 0, false};
const carbide::cpu::KernelEntry regions = {"cpu_kernels::regions", regions_thread, regions_params, 2, nullptr, 0, 0, false};
const carbide::cpu::KernelEntry halo = {"cpu_kernels::halo", halo_thread, in_out_params, 2, halo_sites, 1,
                                        64 * sizeof(float), true};
const carbide::cpu::KernelEntry tiles = {"cpu_kernels::tiles", tiles_thread, tiles_params, 2, nullptr, 0, 0, false};

const carbide::cpu::KernelEntry vecadd = {"cpu_kernels::vecadd", vecadd_thread, vecadd_params, 3, nullptr, 0, 0, false,
                                          &carbide::cpu::run_threads<vecadd_thread>};
const carbide::cpu::KernelEntry reduce_shared = {
    "cpu_kernels::reduce_shared", reduce_shared_thread, reduce_shared_params, 3, reduce_shared_sites, 1, 256 * sizeof(float),
    true};
const carbide::cpu::KernelEntry warp_sums = {"cpu_kernels::warp_sums", warp_sums_thread, warp_sums_params, 5, nullptr, 0, 0,
                                             true};
const carbide::cpu::KernelEntry histogram = {"cpu_kernels::histogram", histogram_thread, histogram_params, 2, histogram_sites, 1,
                                             kHistogramBins * sizeof(unsigned), true};
const carbide::cpu::KernelEntry transpose = {"cpu_kernels::transpose", transpose_thread, transpose_params, 2, transpose_sites, 1,
                                             32 * 33 * sizeof(float), true};
const carbide::cpu::KernelEntry halves = {"cpu_kernels::halves", halves_thread, halves_params, 1, halves_sites, 1,
                                          128 * sizeof(std::uint16_t), true};
const carbide::cpu::KernelEntry dynamic_scale = {"cpu_kernels::dynamic_scale", dynamic_scale_thread, dynamic_scale_params, 3,
                                                 nullptr, 0, 0, true};
const carbide::cpu::KernelEntry shared_race = {"cpu_kernels::shared_race", shared_race_thread, out_only_params, 1,
                                               shared_race_sites, 1, 64 * sizeof(float), true};
const carbide::cpu::KernelEntry global_race = {"cpu_kernels::global_race", global_race_thread, out_only_params, 1, nullptr, 0, 0,
                                               false};
const carbide::cpu::KernelEntry read_next = {"cpu_kernels::read_next", read_next_thread, in_out_params, 2, nullptr, 0, 0, false};
const carbide::cpu::KernelEntry divergent_barrier = {"cpu_kernels::divergent_barrier", divergent_barrier_thread, out_only_params,
                                                     1, nullptr, 0, 0, true};
const carbide::cpu::KernelEntry missing_lanes = {"cpu_kernels::missing_lanes", missing_lanes_thread, out_only_params, 1, nullptr,
                                                 0, 0, true};
const carbide::cpu::KernelEntry spin = {"cpu_kernels::spin", spin_thread, out_only_params, 1, nullptr, 0, 0, false};
const carbide::cpu::KernelEntry plain_sync = {"cpu_kernels::plain_sync", plain_sync_thread, out_only_params, 1, nullptr, 0, 0,
                                              false};
const carbide::cpu::KernelEntry memcpy_race = {"cpu_kernels::memcpy_race", memcpy_race_thread, in_out_params, 2, nullptr, 0, 0,
                                               false};
const carbide::cpu::TileKernelEntry tile_double = {"cpu_kernels::tile_double", tile_double_block, tile_double_params, 2};

const unsigned kVecaddWriteLine = vecadd_write_line, kSharedRaceWriteLine = shared_race_write_line,
               kSharedRaceReadLine = shared_race_read_line, kGlobalRaceLine = global_race_line,
               kReadNextLine = read_next_line, kDivergentBarrierLine = divergent_barrier_line,
               kMissingLanesLine = missing_lanes_line, kSpinLine = spin_line, kPlainSyncLine = plain_sync_line,
               kMemcpyRaceLine = memcpy_race_line;

}  // namespace cpu_kernels
