// Tile kernels: each instance the host launches becomes an entry the translator writes itself,
// with the planner's choices in its comment, one statement per user statement under `#line`,
// and a launch stub that takes Partitions and Tensors and derives the grid. The host program,
// with the header force-included, compiles and links against the stubs.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck --check-prefix=API %s < %t/tile-kernels.carbide.hpp
// RUN: FileCheck --check-prefix=CU %s < %t/tile-kernels.carbide.cu
// RUN: FileCheck --check-prefix=STUBS %s < %t/tile-kernels.carbide.cpp
// RUN: FileCheck --check-prefix=WHOLE %s < %t/tile-kernels.carbide.cpp
// RUN: FileCheck --check-prefix=PTX %s < %t/tile-kernels.ptx
// RUN: %cxx_user -I%t -include %t/tile-kernels.carbide.hpp -c %s -o %t/main.o
// RUN: %cxx_user -I%t -c %t/tile-kernels.carbide.cpp -o %t/stubs.o
// RUN: %cxx_user %t/main.o %t/stubs.o %runtime_lib -ldl -o %t/main
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

namespace ct = carbide::tile;

namespace kernels {

template <int B>
CARBIDE_TILE_KERNEL
void softmax_rows(ct::out<float, ct::shape<1, B>> y, ct::in<float, 2> x) {
  auto t = ct::load_like(x, y, ct::pad(-INFINITY));
  auto e = ct::exp(t - ct::bcast<1>(ct::reduce_max<1>(t), t));
  y.store(e / ct::bcast<1>(ct::reduce_sum<1>(e), e));
}
// API: template <int B>
// API-NEXT: void softmax_rows(const carbide::Stream& stream,
// API-NEXT: carbide::Partition<float, carbide::tile::shape<1, B>>& y,
// API-NEXT: const carbide::Tensor<float>& x) const;
// CU: // kernels::softmax_rows<1024>: tile kernel; the planner chose 128 threads, tiles in chunks of 4 elements
// CU-NEXT: // Two entries over one body, chosen by the stub at each launch: carbide_kernels_softmax_rows_1024
// CU-NEXT: // masks the tiles on the edges; carbide_kernels_softmax_rows_1024__whole
// CU: template <bool kWhole>
// CU-NEXT: __device__ __forceinline__ void carbide_kernels_softmax_rows_1024_body(::carbide::tile::detail::out_arg<float, 2> y, ::carbide::tile::detail::in_arg<float, 2> x) {
// CU: constexpr int B = 1024;
// CU: using L0 = ctd::blocked<128, 4>;
// CU-NEXT: const auto y_coord = ctd::block_coord<kWhole>(y);
// CU: #line [[@LINE-16]] "{{.*}}tile-kernels.cpp"
// CU-NEXT: auto t = ctd::load<ct::shape<1, 1024>, L0, kWhole>(x, y_coord, static_cast<float>(-INFINITY));
// CU-NEXT: #line [[@LINE-17]] "{{.*}}tile-kernels.cpp"
// CU-NEXT: auto e = ctd::exp((t - ctd::bcast<1>(ctd::reduce_max<1, 0, false>(t), t)));
// CU-NEXT: #line [[@LINE-18]] "{{.*}}tile-kernels.cpp"
// CU-NEXT: ctd::store<kWhole>(y, y_coord, (e / ctd::bcast<1>(ctd::reduce_sum<1, 1, false>(e), e)));
// CU-NEXT: }
// CU-NEXT: extern "C" __global__ void __launch_bounds__(128) carbide_kernels_softmax_rows_1024(::carbide::tile::detail::out_arg<float, 2> y, ::carbide::tile::detail::in_arg<float, 2> x) { carbide_kernels_softmax_rows_1024_body<false>(y, x); }
// CU-NEXT: extern "C" __global__ void __launch_bounds__(128) carbide_kernels_softmax_rows_1024__whole(::carbide::tile::detail::out_arg<float, 2> y, ::carbide::tile::detail::in_arg<float, 2> x) { carbide_kernels_softmax_rows_1024_body<true>(y, x); }
// PTX-DAG: .entry carbide_kernels_softmax_rows_1024(
// PTX-DAG: .entry carbide_kernels_softmax_rows_1024__whole(

// A tile read at constant indexes (a row of weights every block reads) keeps the whole entry:
// the stub tests that tile too.
CARBIDE_TILE_KERNEL
void scale_rows(ct::out<float, ct::shape<1, 512>> y, ct::in<float, 2> x, ct::in<float, 2> w) {
  auto pw = w.partition(ct::shape<1, 512>{});
  y.store(ct::load_like(x, y) * pw.load(0, 0));
}
// CU: // kernels::scale_rows: tile kernel; the planner chose 128 threads, tiles in chunks of 4 elements
// CU: ctd::store<kWhole>(y, y_coord, (ctd::load<ct::shape<1, 512>, L0, kWhole>(x, y_coord, static_cast<float>(0)) * ctd::load<ct::shape<1, 512>, L0, kWhole>(w, {0, 0}, static_cast<float>(0))));
// CU: carbide_kernels_scale_rows__whole(
// WHOLE: void Module::scale_rows(const carbide::Stream& stream,
// WHOLE: const bool whole =
// WHOLE-NEXT: carbide::detail::whole_row_tiles(carbide::detail::tile_extents(y_arg), {1, 512}) &&
// WHOLE-NEXT: carbide::detail::covers(carbide::detail::tile_extents(x_arg), carbide::detail::tile_extents(y_arg)) &&
// WHOLE-NEXT: carbide::detail::covers_tile(carbide::detail::tile_extents(w_arg), {0, 0}, {1, 512});
// WHOLE-NEXT: const std::size_t entry = whole ? 5 : 1;
// WHOLE: loaded_.footprint(entry));
// WHOLE: loaded_.launch(entry, stream, config, args);
// A reduction in a loop runs once an iteration: its scratch keeps the barrier against the
// previous iteration's readers (no `, false`).
CARBIDE_TILE_KERNEL
void running_max(ct::out<float, ct::shape<1, 256>> y, ct::in<float, 2> x) {
  auto [i, j] = y.coord();
  auto px = x.partition(ct::shape<1, 256>{});
  auto best = ct::full<float, ct::shape<1, 256>>(-INFINITY);
  for (int k : ct::irange(px.tiles(1)))
    best = ct::max(best, ct::bcast<1>(ct::reduce_max<1>(px.load(i, k)), best));
  y.store(best);
}
// CU: // kernels::running_max: tile kernel; the planner chose 32 threads, tiles in chunks of 4 elements
// CU-NEXT: extern "C" __global__ void __launch_bounds__(32) carbide_kernels_running_max(
// CU: const auto y_coord = ctd::block_coord(y);
// CU: for (int k = 0; k < (ctd::tile_count<1, 256>(x, 1)); ++k) {
// CU-NEXT: #line [[@LINE-7]] "{{.*}}tile-kernels.cpp"
// CU-NEXT: best = ctd::max(best, ctd::bcast<1>(ctd::reduce_max<1, 0>(ctd::load<ct::shape<1, 256>, L0>(x, {i, k}, static_cast<float>(0))), best));
// CU-NEXT: }

template <int BM, int BN, int BK>
CARBIDE_TILE_KERNEL
void gemm(ct::out<ct::bf16, ct::shape<BM, BN>> c, ct::in<ct::bf16, 2> a, ct::in<ct::bf16, 2> b, float alpha) {
  auto [bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<BM, BK>{});
  auto pb = b.partition(ct::shape<BK, BN>{});
  auto acc = ct::zeros<float, ct::shape<BM, BN>>();
  for (int k : ct::irange(pa.tiles(1)))
    acc = ct::mma(pa.load(bm, k), pb.load(k, bn), acc);
  c.store(ct::cast<ct::bf16>(acc * alpha));
}
// CU: // kernels::gemm<128, 128, 64>: tile kernel; the planner chose 128 threads, mma.sync m16n8k16 over 2×2 warps, 3 cp.async stages, 98304 bytes of shared memory
// CU: using P0 = ctd::sm80::gemm_plan<carbide::tile::bf16, 128, 128, 64, 2, 2, 3>;
// CU: const auto c_coord = ctd::gemm_block_coord<P0>(c);
// CU: const int bm = c_coord[0], bn = c_coord[1];
// CU: auto acc = ctd::sm80::gemm_mainloop<P0>(a, b, bm, bn);
// CU-NOT: for (int k
// CU: ctd::store(c, c_coord, ctd::cast<carbide::tile::bf16>((acc * (alpha))));
// STUBS: const carbide::LaunchContract gemm_128_128_64_contract{
// STUBS-NEXT: "kernels::gemm<128, 128, 64>", 1, {128, 1, 1}, 98304, 80, 128};
// Whole-launch entries follow the kernels' own; a tile read at a loop counter (running_max) or a
// GEMM has none.
// STUBS: {"carbide_kernels_softmax_rows_1024", "carbide_kernels_scale_rows", "carbide_kernels_running_max", "carbide_kernels_gemm_128_128_64", "carbide_kernels_softmax_rows_1024__whole", "carbide_kernels_scale_rows__whole"}
// STUBS: template <>
// STUBS-NEXT: void Module::softmax_rows<1024>(const carbide::Stream& stream,
// STUBS: template <>
// STUBS-NEXT: void Module::gemm<128, 128, 64>(const carbide::Stream& stream,
// STUBS: auto c_arg = carbide::detail::tile_output(kernel, "c", c);
// STUBS-NEXT: auto a_arg = carbide::detail::tile_input<2>(kernel, "a", a);
// STUBS: const std::uint64_t blocks = carbide::detail::tile_grid(kernel, {carbide::detail::output_tiles("c", c_arg)});
// STUBS-NEXT: carbide::detail::check_gemm_operands(kernel, carbide::detail::matrix_operand("c", c_arg),
// STUBS-NEXT: carbide::detail::matrix_operand("a", a_arg), carbide::detail::matrix_operand("b", b_arg));
// STUBS: {"c", c.device_ptr(), c.bytes(), true},
// STUBS: const carbide::LaunchConfig1D config(blocks, 128, 98304);
// STUBS: void* args[] = {&c_arg, &a_arg, &b_arg, const_cast<void*>(static_cast<const void*>(&alpha))};

}  // namespace kernels

int main() {
  auto context = carbide::Context::create(0);
  auto stream = context.default_stream();
  const auto module = kernels::load(context);
  auto x = carbide::Tensor<float>::zeroed(stream, {100, 1000});
  auto y = carbide::Tensor<float>::zeroed(stream, {100, 1000});
  auto rows = std::move(y).partition(ct::shape<1, 1024>{});
  module.softmax_rows<1024>(stream, rows, x);
  y = std::move(rows).unpartition();
  auto a = carbide::Tensor<ct::bf16>::zeroed(stream, {300, 200});
  auto b = carbide::Tensor<ct::bf16>::zeroed(stream, {200, 500});
  auto c = carbide::Tensor<ct::bf16>::zeroed(stream, {300, 500});
  auto tiles = std::move(c).partition(ct::shape<128, 128>{});
  module.gemm<128, 128, 64>(stream, tiles, a, b, 1.0f);
  c = std::move(tiles).unpartition();
  auto w = carbide::Tensor<float>::zeroed(stream, {1, 512});
  auto z = carbide::Tensor<float>::zeroed(stream, {64, 512});
  auto scaled = std::move(z).partition(ct::shape<1, 512>{});
  module.scale_rows(stream, scaled, x, w);
  return 0;
}
