// TMA tensor maps for the wgmma GEMM plan's stubs (carbide/tile_launch.hpp): the shape checks
// TMA's limits ask for, then the driver's encoder.
#include "driver.hpp"
#include "driver_api.hpp"

#include <carbide/tile_launch.hpp>

#include <cstring>
#include <string>

namespace carbide::detail {

namespace {
// cuTensorMapEncodeTiled's limits (CUDA driver API, "Tensor Map Object Management").
constexpr std::int64_t kMaxGlobalExtent = std::int64_t{1} << 32, kMaxStrideBytes = std::int64_t{1} << 40;
constexpr int kMaxBox = 256, kSwizzleBytes = 128;
}  // namespace

tile::detail::tensor_map encode_tensor_map(const char* kernel, const char* param, const void* data,
                                           const std::int64_t* extent, const std::int64_t* stride,
                                           std::size_t element_bytes, int box_rows, int box_columns) {
  const std::int64_t row_bytes = stride[0] * std::int64_t(element_bytes);
  const std::string shape = "'" + std::string(param) + "' is " + std::to_string(extent[0]) + " x " +
                            std::to_string(extent[1]) + " with rows " + std::to_string(row_bytes) + " bytes apart";
  if (reinterpret_cast<std::uintptr_t>(data) % 16 != 0 || row_bytes % 16 != 0 || stride[1] != 1)
    throw LaunchContractError(kernel, param, "a tensor with 16-byte aligned rows (TMA)", shape);
  if (extent[0] >= kMaxGlobalExtent || extent[1] >= kMaxGlobalExtent || row_bytes >= kMaxStrideBytes)
    throw LaunchContractError(kernel, param, "a tensor of fewer than 2^32 rows and columns (TMA)", shape);
  if (element_bytes != 2 || box_rows < 1 || box_rows > kMaxBox || box_columns * int(element_bytes) != kSwizzleBytes)
    throw LaunchContractError(kernel, param, "boxes of 16-bit elements, one 128-byte row wide, at most 256 rows",
                              std::to_string(box_rows) + " x " + std::to_string(box_columns) + " of " +
                                  std::to_string(element_bytes) + "-byte elements");
  const cuuint64_t dims[2] = {cuuint64_t(extent[1]), cuuint64_t(extent[0])};  // innermost first
  const cuuint64_t strides[1] = {cuuint64_t(row_bytes)};
  const cuuint32_t box[2] = {cuuint32_t(box_columns), cuuint32_t(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const std::string hint = std::string("the TMA tensor map of '") + param + "' for " + kernel;
  CUtensorMap map;
  // 16-bit words: a copy moves bits, so bf16 and f16 share the type; the zero fill is +0 in both.
  check(driver().cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, const_cast<void*>(data), dims,
                                        strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                        CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
        "cuTensorMapEncodeTiled", hint.c_str());
  static_assert(sizeof(map) == sizeof(tile::detail::tensor_map) && alignof(CUtensorMap) == alignof(tile::detail::tensor_map));
  tile::detail::tensor_map result;
  std::memcpy(&result, &map, sizeof(map));
  return result;
}

}  // namespace carbide::detail
