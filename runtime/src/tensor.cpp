// The checks behind Tensor and Partition (carbide/tensor.hpp), out of line so that their
// messages are built once and tested without a GPU.
#include <carbide/tensor.hpp>

namespace carbide::detail {

std::string extents_text(const std::vector<std::size_t>& extents) {
  std::string text;
  for (std::size_t extent : extents) text += (text.empty() ? "" : " x ") + std::to_string(extent);
  return text;
}

std::size_t tensor_elements(const char* what, const std::vector<std::size_t>& extents,
                            std::size_t element_bytes) {
  if (extents.empty() || extents.size() > Tensor<float>::max_rank)
    throw Error(std::string(what) + ": " + std::to_string(extents.size()) +
                " extents; a tensor has 1 to " + std::to_string(Tensor<float>::max_rank));
  std::size_t elements = 1;
  for (std::size_t axis = 0; axis < extents.size(); ++axis) {
    // An empty axis would make a launch over the tensor a grid of no blocks, which the driver
    // refuses; it is reported here, where the extents were written.
    if (extents[axis] == 0)
      throw Error(std::string(what) + ": extents " + extents_text(extents) + " have 0 on axis " +
                  std::to_string(axis) + "; every extent of a tensor is at least 1");
    if (__builtin_mul_overflow(elements, extents[axis], &elements))
      throw Error(std::string(what) + ": extents " + extents_text(extents) +
                  " hold more elements than fit in 64 bits");
  }
  checked_bytes(what, elements, element_bytes);
  return elements;
}

void throw_empty_tensor(const char* what) {
  throw Error(std::string(what) + " on an empty Tensor: it was moved into a partition (or into "
              "another Tensor); get it back with `t = std::move(p).unpartition();` first");
}

void throw_empty_partition(const char* what) {
  throw Error(std::string(what) +
              " on an empty Partition: it was unpartitioned (or moved into another Partition); "
              "partition the tensor again with `std::move(t).partition(shape)`");
}

void check_partition_rank(const std::vector<std::size_t>& extents, int shape_rank,
                          const std::string& shape_text) {
  if (extents.size() != std::size_t(shape_rank))
    throw Error("Tensor::partition: a tensor of rank " + std::to_string(extents.size()) +
                " (extents " + extents_text(extents) + ") cut into tiles of ct::" + shape_text +
                ", of rank " + std::to_string(shape_rank) + "; give the shape one extent per axis");
}

}  // namespace carbide::detail
