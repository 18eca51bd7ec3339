// What a tile kernel's entry receives for its `ct::in` and `ct::out` parameters: plain, trivially
// copyable descriptions of a tensor that the host stub fills (from a Tensor or a Partition) and the
// device library reads. docs/tile-lowering.md describes the fields' contract.
#pragma once

#include <cstdint>
#include <type_traits>

namespace carbide::tile::detail {

// A `ct::in<T, Rank>`: read-only, run-time extents.
template <class T, int Rank>
struct in_arg {
  const T* data;
  std::int64_t extent[Rank];  // elements along each axis
  std::int64_t stride[Rank];  // elements between neighbours along each axis; the last is 1
  int aligned16;              // data % 16 == 0 and every stride but the last a multiple of 16 bytes
};

// A `ct::out<T, ct::shape<...>>`: the tensor a Partition holds, and its tile grid.
template <class T, int Rank>
struct out_arg {
  T* data;
  std::int64_t extent[Rank];
  std::int64_t stride[Rank];
  std::int64_t tiles[Rank];  // ceil(extent / tile extent) along each axis
  int aligned16;
};

// A TMA tensor map (the driver's CUtensorMap: 128 opaque bytes, aligned to 128 as cuda.h has it;
// TMA needs 64), encoded by the host stub (carbide::detail::tile_tensor_map) and passed by value
// as a __grid_constant__ kernel parameter, whose address cp.async.bulk.tensor reads it through.
struct alignas(128) tensor_map {
  std::uint64_t opaque[16];
};

// The number of tiles of shape<Tile...> along `axis` of an input, the edge tile included:
// what `a.partition(ct::shape<BM, BK>{}).tiles(1)` becomes in emitted code.
template <int... Tile, class T, int Rank>
#if defined(__CUDACC__)
__host__ __device__
#endif
inline int tile_count(const in_arg<T, Rank>& in, int axis) {
  constexpr int extents[] = {Tile...};
  return int((in.extent[axis] + extents[axis] - 1) / extents[axis]);
}

static_assert(std::is_trivially_copyable_v<in_arg<float, 2>> && std::is_trivially_copyable_v<out_arg<float, 2>>);
static_assert(sizeof(tensor_map) == 128 && alignof(tensor_map) == 128, "CUtensorMap's size and alignment");

}  // namespace carbide::tile::detail
