// Outputs claimed with thread::index_2d_transposed(): each launch stub checks, before the driver
// sees the launch, that the grid is the output's tile grid transposed, with the tile the claim
// makes (piece × block): 4 × 1 pieces of a 32 × 8 block, 2 × 2 tiles claimed in a helper of a
// template instance, one element without a contract (the block comes from the config). An output
// claimed with index_2d() gets no such check. The user's file and the stubs compile together.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck --check-prefix=STUB %s < %t/transposed-tiles.carbide.cpp
// RUN: FileCheck --check-prefix=CU %s < %t/transposed-tiles.carbide.cu
// RUN: %cxx_user -I%t -include %t/transposed-tiles.carbide.hpp -fsyntax-only %s
// RUN: %cxx_user -I%t -fsyntax-only %t/transposed-tiles.carbide.cpp
// CU: if (auto mine = out.get_mut_strided_tile<4, 1>(carbide::thread::index_2d_transposed()))
// STUB-LABEL: void Module::transpose(
// STUB: carbide::detail::check_prepared_for(
// STUB-NEXT: carbide::validate_transposed_output(
// STUB-NEXT: "kernels::transpose",
// STUB-NEXT: {"out", out.rows(), out.cols(), 4, 1},
// STUB-NEXT: prepared.config());
// STUB-LABEL: void Module::tiled<2>(
// STUB: carbide::validate_transposed_output(
// STUB-NEXT: "kernels::tiled<2>",
// STUB-NEXT: {"swapped", swapped.rows(), swapped.cols(), 2, 2},
// STUB-NEXT: prepared.config());
// STUB-NOT: validate_transposed_output
// STUB-LABEL: void Module::unsafe_launch_uncontracted(
// STUB: carbide::validate_transposed_output(
// STUB-NEXT: "kernels::uncontracted",
// STUB-NEXT: {"out", out.rows(), out.cols(), 1, 1},
// STUB-NEXT: config);
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1))
void transpose(carbide::span2d<const float> in, carbide::disjoint_span2d<float> out) {
  auto tile = carbide::block::shared<float, 32 * 33>();
  const unsigned tx = carbide::thread::thread_idx().x, ty = carbide::thread::thread_idx().y;
  const std::size_t col = std::size_t(carbide::thread::block_idx().x) * 32 + tx;
  for (unsigned j = 0; j < 32; j += 8) {
    const std::size_t row = std::size_t(carbide::thread::block_idx().y) * 32 + ty + j;
    if (row < in.rows() && col < in.cols()) tile[(ty + j) * 33 + tx] = in(row, col);
  }
  carbide::block::sync();
  if (auto mine = out.get_mut_strided_tile<4, 1>(carbide::thread::index_2d_transposed()))
    for (unsigned j = 0; j < 32; j += 8) mine.store(j / 8, 0, tile[tx * 33 + ty + j]);
}

template <int N>
void fill(carbide::disjoint_span2d<float> target, const carbide::thread::index_2d_transposed_witness& at) {
  if (auto piece = target.get_mut_tile<N, N>(at)) piece(0, 0) = 1.f;
}

// `straight` keeps the launch's block order and is not checked.
template <int N>
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void tiled(carbide::disjoint_span2d<float> straight, carbide::disjoint_span2d<float> swapped) {
  if (float* e = straight.get_mut(carbide::thread::index_2d())) *e = 0.f;
  fill<N>(swapped, carbide::thread::index_2d_transposed());
}
template void tiled<2>(carbide::disjoint_span2d<float>, carbide::disjoint_span2d<float>);

CARBIDE_KERNEL
void uncontracted(carbide::disjoint_span2d<float> out) {
  if (float* e = out.get_mut(carbide::thread::index_2d_transposed())) *e = 1.f;
}

}  // namespace kernels

// Host code: the launch names the output's tile grid transposed.
[[maybe_unused]] static void launch(kernels::Module& module, const carbide::Stream& stream,
                                    const carbide::DeviceBuffer2D<float>& in, carbide::DeviceBuffer2D<float>& out) {
  module.transpose(stream, module.prepare_transpose(carbide::LaunchConfig2D({3, 2, 1}, {32, 8, 1})), in, out);
}
