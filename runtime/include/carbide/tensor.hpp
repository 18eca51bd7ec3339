// Tensors for tile kernels (DESIGN §10, "Host API"): an owning, move-only, row-major device
// tensor with run-time extents, and the Partition it is moved into to become a tile kernel's
// output. Moving is the ownership rule: while a Partition holds the tensor, the tensor's handle is
// empty and every use of it throws, so no code reads the memory a kernel may be writing.
#pragma once

#include <carbide/runtime.hpp>
#include <carbide/tile/shape.hpp>
#include <carbide/tile/types.hpp>  // the element types ct::bf16 and ct::f16

#include <array>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace carbide {

template <class T, class Shape>
class Partition;

namespace detail {
// The number of elements of a tensor of `extents`; throws Error naming `what` unless the rank is
// 1 to 4, every extent at least 1, and the byte size fits in 64 bits.
std::size_t tensor_elements(const char* what, const std::vector<std::size_t>& extents,
                            std::size_t element_bytes);
// Throw Error saying that `what` was used on an empty (moved-from) handle, and how to get a
// usable one back.
[[noreturn]] void throw_empty_tensor(const char* what);
[[noreturn]] void throw_empty_partition(const char* what);
// Throws Error unless a tensor of `extents` can be cut into tiles of `shape_text`'s rank.
void check_partition_rank(const std::vector<std::size_t>& extents, int shape_rank,
                          const std::string& shape_text);
// "300 x 200", as messages name extents and tile grids.
std::string extents_text(const std::vector<std::size_t>& extents);
}  // namespace detail

// A row-major, contiguous tensor of rank 1 to 4 in device memory. Move-only: one owner frees it.
// A moved-from tensor is empty(); using it throws Error (assigning to it and destroying it are
// fine).
template <class T>
class Tensor {
  static_assert(std::is_trivially_copyable_v<T>, "tensors hold trivially copyable values");

 public:
  static constexpr std::size_t max_rank = 4;

  static Tensor zeroed(const Stream& stream, std::initializer_list<std::size_t> extents) {
    return zeroed(stream, std::vector<std::size_t>(extents));
  }
  static Tensor zeroed(const Stream& stream, const std::vector<std::size_t>& extents) {
    const std::size_t size = detail::tensor_elements("Tensor::zeroed", extents, sizeof(T));
    return Tensor(DeviceBuffer<T>::zeroed(stream, size), extents);
  }
  // `row_major` holds the elements, the last axis fastest; throws Error unless it holds exactly
  // as many as the extents give.
  static Tensor from_host(const Stream& stream, const std::vector<T>& row_major,
                          std::initializer_list<std::size_t> extents) {
    return from_host(stream, row_major, std::vector<std::size_t>(extents));
  }
  static Tensor from_host(const Stream& stream, const std::vector<T>& row_major,
                          const std::vector<std::size_t>& extents) {
    const std::size_t size = detail::tensor_elements("Tensor::from_host", extents, sizeof(T));
    if (row_major.size() != size)
      throw Error("Tensor::from_host: " + std::to_string(row_major.size()) +
                  " values for a tensor of extents " + detail::extents_text(extents) + " (" +
                  std::to_string(size) + " elements)");
    return Tensor(DeviceBuffer<T>::from_host(stream, row_major), extents);
  }

  Tensor(Tensor&& other) noexcept
      : storage_(std::move(other.storage_)), extents_(std::exchange(other.extents_, {})) {}
  Tensor& operator=(Tensor&& other) noexcept {
    if (this != &other) {
      storage_ = std::move(other.storage_);
      extents_ = std::exchange(other.extents_, {});
    }
    return *this;
  }
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  ~Tensor() = default;

  // True once the tensor was moved away (into a Partition, or another Tensor).
  bool empty() const { return extents_.empty(); }

  const std::vector<std::size_t>& extents() const {
    require_not_empty("Tensor::extents");
    return extents_;
  }
  std::size_t rank() const {
    require_not_empty("Tensor::rank");
    return extents_.size();
  }
  std::size_t size() const {
    require_not_empty("Tensor::size");
    return storage_.size();
  }
  std::size_t bytes() const {
    require_not_empty("Tensor::bytes");
    return storage_.bytes();
  }
  // The device address (a CUdeviceptr), for the driver API and the launch checks.
  detail::DevicePtr device_ptr() const {
    require_not_empty("Tensor::device_ptr");
    return storage_.device_ptr();
  }
  const Context& context() const {
    require_not_empty("Tensor::context");
    return storage_.context();
  }

  // The elements in row-major order; waits for the copy.
  std::vector<T> to_host_vec(const Stream& stream) const {
    require_not_empty("Tensor::to_host_vec");
    return storage_.to_host_vec(stream);
  }

  // Moves the tensor into a Partition of `Shape` tiles, the form a tile kernel's `ct::out`
  // takes; this tensor is left empty until `std::move(partition).unpartition()` gives it back.
  // Only on an rvalue, so the move is visible: `std::move(t).partition(ct::shape<128, 128>{})`.
  // Throws Error, leaving the tensor as it was, unless the shape's rank is the tensor's.
  template <class Shape>
  Partition<T, Shape> partition(Shape) && {
    static_assert(tile::is_shape_v<Shape>, "partition takes a ct::shape<...>");
    require_not_empty("Tensor::partition");
    detail::check_partition_rank(extents_, Shape::rank, Shape::text());
    return Partition<T, Shape>(std::move(*this));
  }

 private:
  Tensor(DeviceBuffer<T> storage, std::vector<std::size_t> extents)
      : storage_(std::move(storage)), extents_(std::move(extents)) {}
  void require_not_empty(const char* what) const {
    if (empty()) detail::throw_empty_tensor(what);
  }

  DeviceBuffer<T> storage_;
  std::vector<std::size_t> extents_;  // empty only for a moved-from tensor
};

// A tensor cut into tiles of `Shape` (a ct::shape of the tensor's rank), the last tiles along
// each axis partial where the extent is not a multiple of the tile: what a tile kernel's
// `ct::out<T, Shape>` parameter takes, one block per tile. It holds the tensor, so nothing else
// reaches its memory while a launch may write it. Move-only; empty() once unpartitioned.
template <class T, class Shape>
class Partition {
  static_assert(tile::is_shape_v<Shape>, "a Partition's shape is a ct::shape<...>");

 public:
  static constexpr int rank = Shape::rank;

  Partition(Partition&&) noexcept = default;
  Partition& operator=(Partition&&) noexcept = default;
  Partition(const Partition&) = delete;
  Partition& operator=(const Partition&) = delete;

  bool empty() const { return tensor_.empty(); }

  // The tensor back, this partition left empty: `t = std::move(p).unpartition();`.
  Tensor<T> unpartition() && {
    require_not_empty("Partition::unpartition");
    return std::move(tensor_);
  }

  const std::vector<std::size_t>& extents() const {
    require_not_empty("Partition::extents");
    return tensor_.extents();
  }
  // Tiles along each axis: ceil(extent / tile extent).
  std::array<std::size_t, rank> tiles() const {
    require_not_empty("Partition::tiles");
    std::array<std::size_t, rank> counts{};
    for (int axis = 0; axis < rank; ++axis)
      counts[axis] = div_ceil(tensor_.extents()[axis], std::size_t(Shape::extent(axis)));
    return counts;
  }
  // The number of tiles: the blocks of a launch over this partition.
  std::size_t tile_count() const {
    std::size_t count = 1;
    for (std::size_t tiles_along_axis : tiles()) count *= tiles_along_axis;  // <= size()
    return count;
  }

  // What the launch checks (range overlap, device) need.
  std::size_t bytes() const {
    require_not_empty("Partition::bytes");
    return tensor_.bytes();
  }
  detail::DevicePtr device_ptr() const {
    require_not_empty("Partition::device_ptr");
    return tensor_.device_ptr();
  }
  const Context& context() const {
    require_not_empty("Partition::context");
    return tensor_.context();
  }

 private:
  friend class Tensor<T>;
  explicit Partition(Tensor<T> tensor) : tensor_(std::move(tensor)) {}
  void require_not_empty(const char* what) const {
    if (empty()) detail::throw_empty_partition(what);
  }

  Tensor<T> tensor_;
};

}  // namespace carbide

// What the generated stubs of tile kernels call; it needs Tensor and Partition complete.
#include <carbide/tile_launch.hpp>
