// Tensor and Partition: everything that needs no device memory (extents, messages, what the
// types allow at compile time).
#include <carbide/runtime.hpp>

#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ct = carbide::tile;

namespace carbide::detail {
namespace {

std::string message_of(void (*call)()) {
  try {
    call();
  } catch (const Error& error) {
    return error.what();
  }
  return "(nothing thrown)";
}

TEST(TensorExtents, ElementsAreTheProductOfTheExtents) {
  EXPECT_EQ(tensor_elements("t", {7}, 4), 7u);
  EXPECT_EQ(tensor_elements("t", {3, 5, 7, 2}, 2), 210u);
}

TEST(TensorExtents, RankOutsideOneToFourIsRejected) {
  EXPECT_THROW(tensor_elements("t", {}, 4), Error);
  const std::string message =
      message_of([] { tensor_elements("Tensor::zeroed", {1, 2, 3, 4, 5}, 4); });
  EXPECT_EQ(message, "Tensor::zeroed: 5 extents; a tensor has 1 to 4");
}

TEST(TensorExtents, ZeroExtentIsRejectedNamingTheAxis) {
  EXPECT_EQ(message_of([] { tensor_elements("Tensor::zeroed", {4, 0}, 4); }),
            "Tensor::zeroed: extents 4 x 0 have 0 on axis 1; every extent of a tensor is at "
            "least 1");
}

TEST(TensorExtents, SizesPast64BitsAreRejected) {
  EXPECT_THROW(tensor_elements("t", {std::size_t(1) << 32, std::size_t(1) << 32}, 1), Error);
  EXPECT_THROW(tensor_elements("t", {std::size_t(1) << 62}, 8), Error);  // the bytes overflow
}

TEST(TensorMessages, EmptyHandlesSayHowToGetTheTensorBack) {
  EXPECT_EQ(message_of([] { throw_empty_tensor("Tensor::to_host_vec"); }),
            "Tensor::to_host_vec on an empty Tensor: it was moved into a partition (or into "
            "another Tensor); get it back with `t = std::move(p).unpartition();` first");
  EXPECT_NE(message_of([] { throw_empty_partition("Partition::tiles"); })
                .find("partition the tensor again with `std::move(t).partition(shape)`"),
            std::string::npos);
}

TEST(TensorMessages, PartitionOfAnotherRankNamesBoth) {
  EXPECT_NO_THROW(check_partition_rank({300, 200}, 2, ct::shape<128, 128>::text()));
  EXPECT_EQ(message_of([] { check_partition_rank({300, 200}, 1, ct::shape<128>::text()); }),
            "Tensor::partition: a tensor of rank 2 (extents 300 x 200) cut into tiles of "
            "ct::shape<128>, of rank 1; give the shape one extent per axis");
}

// What the types allow: the ownership rules are compile-time where they can be.
template <class T, class = void>
struct partitions_an_lvalue : std::false_type {};
template <class T>
struct partitions_an_lvalue<T, std::void_t<decltype(std::declval<T&>().partition(ct::shape<8>{}))>>
    : std::true_type {};

template <class T, class = void>
struct partitions_an_rvalue : std::false_type {};
template <class T>
struct partitions_an_rvalue<T, std::void_t<decltype(std::declval<T&&>().partition(ct::shape<8>{}))>>
    : std::true_type {};

static_assert(!std::is_copy_constructible_v<Tensor<float>>);
static_assert(std::is_nothrow_move_constructible_v<Tensor<float>>);
static_assert(!std::is_copy_constructible_v<Partition<float, ct::shape<8>>>);
static_assert(std::is_nothrow_move_assignable_v<Partition<ct::bf16, ct::shape<8, 8>>>);
static_assert(partitions_an_rvalue<Tensor<float>>::value);
static_assert(!partitions_an_lvalue<Tensor<float>>::value,
              "partition() is for rvalues only: std::move(t).partition(shape)");

}  // namespace
}  // namespace carbide::detail
