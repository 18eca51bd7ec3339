// What a generated tile-kernel stub calls to turn its Tensor and Partition arguments into the
// entry's in_arg / out_arg values and the grid, checking each before the driver sees anything
// (docs/tile-lowering.md, "The launch"). The range-overlap check is check_no_aliasing over
// device_ptr() and bytes() of each argument, outputs exclusive.
#pragma once

#include <carbide/errors.hpp>
#include <carbide/tensor.hpp>
#include <carbide/tile/args.hpp>
#include <carbide/tile/types.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <type_traits>
#include <string>
#include <vector>

namespace carbide::detail {

// The element type as a tile kernel's signature spells it, for messages.
template <class T>
constexpr const char* tile_element_name() {
  if constexpr (std::is_same_v<T, tile::bf16>) return "bf16";
  else if constexpr (std::is_same_v<T, tile::f16>) return "f16";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, std::int8_t>) return "int8_t";
  else if constexpr (std::is_same_v<T, std::uint8_t>) return "uint8_t";
  else if constexpr (std::is_same_v<T, std::int16_t>) return "int16_t";
  else if constexpr (std::is_same_v<T, std::uint16_t>) return "uint16_t";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "int32_t";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "uint32_t";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "int64_t";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return "uint64_t";
  else static_assert(sizeof(T) == 0, "tile kernels take bf16, f16, float, double and integers");
}

// Throws Error: a launch of `kernel` was given an empty (moved-from) Tensor, or Partition when
// `is_output`, for `param`.
[[noreturn]] void throw_empty_tile_argument(const char* kernel, const char* param, bool is_output);
// Throws LaunchContractError unless `extents` has the `declared_rank` axes of the kernel's
// `ct::in<element, declared_rank>` parameter `param`.
void check_tile_input_rank(const char* kernel, const char* param, const char* element,
                           int declared_rank, const std::vector<std::size_t>& extents);
// Writes the extents and row-major strides (in elements) of a contiguous tensor of `extents` at
// `data` into `extent` and `stride` (one per axis) and returns the aligned16 flag of
// docs/tile-lowering.md: `data` on 16 bytes and every stride but the last a multiple of 16 bytes.
int describe_row_major(const std::vector<std::size_t>& extents, std::size_t element_bytes,
                       DevicePtr data, std::int64_t* extent, std::int64_t* stride);

// A `ct::in<T, Rank>` argument: throws Error if `tensor` is empty and LaunchContractError if its
// rank is not Rank.
template <int Rank, class T>
tile::detail::in_arg<T, Rank> tile_input(const char* kernel, const char* param,
                                         const Tensor<T>& tensor) {
  if (tensor.empty()) throw_empty_tile_argument(kernel, param, false);
  check_tile_input_rank(kernel, param, tile_element_name<T>(), Rank, tensor.extents());
  tile::detail::in_arg<T, Rank> arg{};
  arg.data = reinterpret_cast<const T*>(tensor.device_ptr());
  arg.aligned16 = describe_row_major(tensor.extents(), sizeof(T), tensor.device_ptr(), arg.extent,
                                     arg.stride);
  return arg;
}

// A `ct::out<T, Shape>` argument: throws Error if `partition` is empty. Its rank is the shape's,
// which partition() checked.
template <class T, class Shape>
tile::detail::out_arg<T, Shape::rank> tile_output(const char* kernel, const char* param,
                                                  Partition<T, Shape>& partition) {
  if (partition.empty()) throw_empty_tile_argument(kernel, param, true);
  tile::detail::out_arg<T, Shape::rank> arg{};
  arg.data = reinterpret_cast<T*>(partition.device_ptr());
  arg.aligned16 = describe_row_major(partition.extents(), sizeof(T), partition.device_ptr(),
                                     arg.extent, arg.stride);
  const auto tiles = partition.tiles();
  for (int axis = 0; axis < Shape::rank; ++axis) arg.tiles[axis] = std::int64_t(tiles[axis]);
  return arg;
}

// One `ct::out` argument's tile grid, as tile_grid compares them.
struct OutputTiles {
  const char* param;
  const std::int64_t* tiles;  // the out_arg's, one per axis
  int rank;
};

template <class T, int Rank>
OutputTiles output_tiles(const char* param, const tile::detail::out_arg<T, Rank>& arg) {
  return {param, arg.tiles, Rank};
}

// The launch's grid.x: one block per tile of the outputs' common grid. Throws LaunchContractError
// naming two outputs whose grids differ (axes of one tile aside: a `shape<1, B>` over [M, N <= B]
// and a `shape<1>` over [M] give the same M blocks), or when the tiles exceed 2^31 - 1 blocks.
std::uint64_t tile_grid(const char* kernel, std::initializer_list<OutputTiles> outputs);

// The whole-launch test (docs/tile-lowering.md, "Whole launches"): when every output is whole
// and tiled along its first axis only and every input tile the kernel reads is whole, the stub
// launches the entry without edge tests. Each function below is one term of the test.
struct TileExtents {
  const std::int64_t* extent;
  int rank;
  int aligned16;
};
template <class Arg>
TileExtents tile_extents(const Arg& arg) {
  return {arg.extent, int(std::size(arg.extent)), arg.aligned16};
}
// `out`, partitioned into tiles of `tile`: aligned, its extents multiples of the tile's, and one
// tile across every axis but the first (so block b's coordinates are {b, 0, ...}).
bool whole_row_tiles(const TileExtents& out, std::initializer_list<std::int64_t> tile);
// `in` read by load_like(in, out) with `out` whole: aligned, and at least as large as `out` along
// every axis, so the tile at each of out's coordinates lies inside it.
bool covers(const TileExtents& in, const TileExtents& out);
// `in` read at tile index `at` in tiles of `tile`: aligned, and that tile inside it.
bool covers_tile(const TileExtents& in, std::initializer_list<std::int64_t> at, std::initializer_list<std::int64_t> tile);

// The operands of a GEMM plan (c = a · b): throws LaunchContractError unless a is M × K, b is
// K × N and c is M × N, K and N are multiples of 8 and all three are 16-byte aligned (the
// pipelined main loop copies 16-byte rows; see tile/gemm_sm80.hpp).
struct MatrixOperand {
  const char* param;
  const std::int64_t* extent;  // two axes
  int aligned16;
};
template <class T>
MatrixOperand matrix_operand(const char* param, const tile::detail::in_arg<T, 2>& arg) {
  return {param, arg.extent, arg.aligned16};
}
template <class T>
MatrixOperand matrix_operand(const char* param, const tile::detail::out_arg<T, 2>& arg) {
  return {param, arg.extent, arg.aligned16};
}
void check_gemm_operands(const char* kernel, const MatrixOperand& c, const MatrixOperand& a, const MatrixOperand& b);

// The operands of a batched GEMM plan (rank 3: c[z] = a[z] · b[z]): one batch count, and each
// matrix as check_gemm_operands wants it.
struct BatchedOperand {
  const char* param;
  const std::int64_t* extent;  // three axes: the batch, then the matrix's
  int aligned16;
  MatrixOperand matrix() const { return {param, extent + 1, aligned16}; }
};
template <class T>
BatchedOperand matrix_operand(const char* param, const tile::detail::in_arg<T, 3>& arg) {
  return {param, arg.extent, arg.aligned16};
}
template <class T>
BatchedOperand matrix_operand(const char* param, const tile::detail::out_arg<T, 3>& arg) {
  return {param, arg.extent, arg.aligned16};
}
inline void check_batched_gemm_operands(const char* kernel, const BatchedOperand& c, const BatchedOperand& a,
                                        const BatchedOperand& b) {
  for (const BatchedOperand* operand : {&a, &b})
    if (operand->extent[0] != c.extent[0])
      throw LaunchContractError(kernel, operand->param,
                                "a batch of as many matrices as '" + std::string(c.param) + "' (" +
                                    std::to_string(c.extent[0]) + ")",
                                std::to_string(operand->extent[0]));
  check_gemm_operands(kernel, c.matrix(), a.matrix(), b.matrix());
}

// A TMA tensor map of a 2-D row-major tensor of 16-bit elements (`extent` and `stride` in
// elements, as an in_arg holds them), read in boxes of box_rows × box_columns with the 128-byte
// swizzle; elements outside the tensor read as zero. A wgmma GEMM plan's stub passes one for each
// operand (tile/gemm_sm90.hpp). Throws LaunchContractError for a tensor TMA cannot describe and
// DriverError when there is no driver or it refuses the map. On a CPU context, tile_tensor_map
// gives an empty map: the kernel's CPU form reads the operands through their arguments.
tile::detail::tensor_map encode_tensor_map(const char* kernel, const char* param, const void* data,
                                           const std::int64_t* extent, const std::int64_t* stride,
                                           std::size_t element_bytes, int box_rows, int box_columns);
template <class T>
tile::detail::tensor_map tile_tensor_map(const Context& context, const char* kernel, const char* param,
                                         const tile::detail::in_arg<T, 2>& arg, int box_rows, int box_columns) {
  if (context.is_cpu()) return {};
  return encode_tensor_map(kernel, param, arg.data, arg.extent, arg.stride, sizeof(T), box_rows, box_columns);
}

}  // namespace carbide::detail
