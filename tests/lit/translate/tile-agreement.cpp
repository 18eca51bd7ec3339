// The four forms `carbide check` passed and `translate` then failed in nvcc on, with errors that
// named carbide::tile::detail functions: bcast<0> of a loaded row vector, ct::zeros in a GEMM
// epilogue, select between a reduction's result and a full tile, out.store() of a reduction.
// Each now translates, nvcc compiles it, and ptxas accepts the PTX; the layouts the planner
// chose for them are the ones below (docs/tile-lowering.md, "Layouts").
// RUN: rm -rf %t && %carbide check %s
// RUN: %carbide translate %s -o %t --cuda-arch sm_90
// RUN: FileCheck %s < %t/tile-agreement.carbide.cu
// RUN: %ptxas -arch=sm_90 %t/tile-agreement.ptx -o %t/agreement.cubin
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

namespace ct = carbide::tile;

namespace kernels {

// The row is loaded straight into the columns each thread holds of t (cols_of), and bcast<0>
// spreads it in registers.
CARBIDE_TILE_KERNEL
void scale_columns(ct::out<float, ct::shape<4, 128>> y, ct::in<float, 2> x, ct::in<float, 1> w) {
  auto [i, j] = y.coord();
  auto pw = w.partition(ct::shape<128>{});
  auto t = ct::load_like(x, y);
  y.store(t * ct::bcast<0>(pw.load(j), t));
}
// CHECK-LABEL: carbide_kernels_scale_columns(
// CHECK: ctd::store(y, y_coord, (t * ctd::bcast<0>(ctd::load<ct::shape<128>, ctd::cols_of<L0, 4>>(w, {j}, static_cast<float>(0)), t)));

// zeros made in the accumulator's layout.
CARBIDE_TILE_KERNEL
void gemm_relu(ct::out<float, ct::shape<128, 128>> c, ct::in<ct::bf16, 2> a, ct::in<ct::bf16, 2> b) {
  auto [bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<128, 64>{});
  auto pb = b.partition(ct::shape<64, 128>{});
  auto acc = ct::zeros<float, ct::shape<128, 128>>();
  for (int k : ct::irange(pa.tiles(1)))
    acc = ct::mma(pa.load(bm, k), pb.load(k, bn), acc);
  c.store(ct::max(acc, ct::zeros<float, ct::shape<128, 128>>()));
}
// CHECK-LABEL: carbide_kernels_gemm_relu(
// CHECK: using LA = ctd::sm80::acc<P0>;
// CHECK: ctd::store(c, c_coord, ctd::max(acc, ctd::zeros<float, ct::shape<128, 128>, LA>()));

// The full tile is made in the reduction's layout (rows_of).
CARBIDE_TILE_KERNEL
void shift_rows(ct::out<float, ct::shape<4, 128>> y, ct::in<float, 2> x) {
  auto t = ct::load_like(x, y);
  auto m = ct::reduce_max<1>(t);
  y.store(t - ct::bcast<1>(ct::select(m > 0.0f, m, ct::full<float, ct::shape<4>>(0.0f)), t));
}
// CHECK-LABEL: carbide_kernels_shift_rows_body(
// CHECK: ctd::select((m > (0.0f)), m, ctd::full<float, ct::shape<4>, ctd::rows_of<L0, 128>>(static_cast<float>((0.0f))))

// A reduction stored: the threads that hold a row's value write it (all the same value).
CARBIDE_TILE_KERNEL
void row_sums(ct::out<float, ct::shape<4>> y, ct::in<float, 2> x) {
  auto [i] = y.coord();
  auto px = x.partition(ct::shape<4, 128>{});
  y.store(ct::reduce_sum<1>(px.load(i, 0)));
}
// CHECK-LABEL: carbide_kernels_row_sums(
// CHECK: ctd::store(y, y_coord, ctd::reduce_sum<1, 0, false>(ctd::load<ct::shape<4, 128>, L0>(x, {i, 0}, static_cast<float>(0))));

}  // namespace kernels
