// The checks a tile kernel's stub makes on its Tensor and Partition arguments
// (carbide/tile_launch.hpp); pure functions of the arguments' shapes, tested without a GPU.
#include <carbide/tile_launch.hpp>

#include <string>

namespace carbide::detail {

namespace {
// The largest grid.x of every CUDA device, and so the most tiles one launch covers.
constexpr std::uint64_t kMaxGridX = (std::uint64_t{1} << 31) - 1;
constexpr std::size_t kVectorBytes = 16;

std::string tiles_text(const OutputTiles& output) {
  std::string text;
  for (int axis = 0; axis < output.rank; ++axis)
    text += (axis == 0 ? "" : " x ") + std::to_string(output.tiles[axis]);
  return text + " tiles";
}

// The tile counts without the axes of one tile, which do not change the grid's blocks or the
// order block_coord gives them.
std::vector<std::int64_t> grid_axes(const OutputTiles& output) {
  std::vector<std::int64_t> axes;
  for (int axis = 0; axis < output.rank; ++axis)
    if (output.tiles[axis] != 1) axes.push_back(output.tiles[axis]);
  return axes;
}
}  // namespace

void throw_empty_tile_argument(const char* kernel, const char* param, bool is_output) {
  throw Error(std::string("launch of ") + kernel + " rejected: '" + param + "' is an empty " +
              (is_output ? "Partition (unpartitioned, or moved away); pass the partition the "
                           "tensor is in: `auto p = std::move(t).partition(shape);`"
                         : "Tensor (moved into a partition, or moved away); get it back with "
                           "`t = std::move(p).unpartition();` before the launch"));
}

void check_tile_input_rank(const char* kernel, const char* param, const char* element,
                           int declared_rank, const std::vector<std::size_t>& extents) {
  if (extents.size() != std::size_t(declared_rank))
    throw LaunchContractError(
        kernel, param,
        "of rank " + std::to_string(declared_rank) + " (the kernel's `ct::in<" + element + ", " +
            std::to_string(declared_rank) + ">`)",
        "rank " + std::to_string(extents.size()) + " (extents " + extents_text(extents) + ")");
}

int describe_row_major(const std::vector<std::size_t>& extents, std::size_t element_bytes,
                       DevicePtr data, std::int64_t* extent, std::int64_t* stride) {
  bool aligned = data % kVectorBytes == 0;
  std::int64_t elements_after = 1;  // the elements of one step along the current axis
  for (std::size_t axis = extents.size(); axis-- > 0;) {
    extent[axis] = std::int64_t(extents[axis]);
    stride[axis] = elements_after;
    if (axis + 1 < extents.size())
      aligned = aligned && std::size_t(elements_after) * element_bytes % kVectorBytes == 0;
    elements_after *= extent[axis];  // the tensor's size fits: it was allocated
  }
  return aligned ? 1 : 0;
}

std::uint64_t tile_grid(const char* kernel, std::initializer_list<OutputTiles> outputs) {
  if (outputs.size() == 0)
    throw Error(std::string("launch of ") + kernel + ": a tile kernel writes at least one ct::out");
  const OutputTiles& first = *outputs.begin();
  for (const OutputTiles& output : outputs)
    if (grid_axes(output) != grid_axes(first))
      throw LaunchContractError(kernel, output.param,
                                "partitioned into the tile grid of '" + std::string(first.param) +
                                    "' (" + tiles_text(first) + ")",
                                tiles_text(output));
  std::uint64_t blocks = 1;
  for (std::int64_t tiles : grid_axes(first))
    if (__builtin_mul_overflow(blocks, std::uint64_t(tiles), &blocks) || blocks > kMaxGridX)
      throw LaunchContractError(kernel, "grid.x",
                                "at most " + std::to_string(kMaxGridX) + " blocks, one per tile",
                                tiles_text(first) + " of '" + first.param + "'");
  return blocks;
}

bool whole_row_tiles(const TileExtents& out, std::initializer_list<std::int64_t> tile) {
  if (!out.aligned16 || std::size_t(out.rank) != tile.size()) return false;
  int axis = 0;
  for (std::int64_t extent : tile) {
    const std::int64_t length = out.extent[axis];
    if (axis == 0 ? length % extent != 0 : length != extent) return false;
    ++axis;
  }
  return true;
}

bool covers(const TileExtents& in, const TileExtents& out) {
  if (!in.aligned16 || in.rank != out.rank) return false;
  for (int axis = 0; axis < in.rank; ++axis)
    if (in.extent[axis] < out.extent[axis]) return false;
  return true;
}

bool covers_tile(const TileExtents& in, std::initializer_list<std::int64_t> at, std::initializer_list<std::int64_t> tile) {
  if (!in.aligned16 || std::size_t(in.rank) != at.size() || at.size() != tile.size()) return false;
  const std::int64_t* index = at.begin();
  const std::int64_t* extent = tile.begin();
  for (int axis = 0; axis < in.rank; ++axis)
    if ((index[axis] + 1) * extent[axis] > in.extent[axis]) return false;
  return true;
}

}  // namespace carbide::detail

namespace carbide::detail {

namespace {
std::string matrix_text(const MatrixOperand& operand) {
  return std::string("'") + operand.param + "' is " + std::to_string(operand.extent[0]) + " x " +
         std::to_string(operand.extent[1]);
}
}  // namespace

void check_gemm_operands(const char* kernel, const MatrixOperand& c, const MatrixOperand& a, const MatrixOperand& b) {
  const std::string shapes = matrix_text(c) + ", " + matrix_text(a) + ", " + matrix_text(b);
  if (a.extent[1] != b.extent[0])
    throw LaunchContractError(kernel, b.param,
                              "a matrix with as many rows as '" + std::string(a.param) + "' has columns", shapes);
  if (c.extent[0] != a.extent[0] || c.extent[1] != b.extent[1])
    throw LaunchContractError(kernel, c.param,
                              "a matrix with the rows of '" + std::string(a.param) + "' and the columns of '" +
                                  b.param + "'",
                              shapes);
  if (a.extent[1] % 8 != 0 || b.extent[1] % 8 != 0)
    throw LaunchContractError(kernel, a.extent[1] % 8 != 0 ? a.param : b.param,
                              "a matrix whose columns are a multiple of 8 (the main loop copies 16-byte rows)",
                              shapes);
  for (const MatrixOperand* operand : {&c, &a, &b})
    if (!operand->aligned16)
      throw LaunchContractError(kernel, operand->param, "a tensor with 16-byte aligned rows", "one whose rows are not");
}

}  // namespace carbide::detail
