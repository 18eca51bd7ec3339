// A shared-memory subscript whose index the contract's block shape, the loop bounds and the
// conditions at the access keep inside the array is emitted without its bounds check; every
// other subscript keeps it.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck %s < %t/proven-shared-subscripts.carbide.cu
// RUN: %ptxas -arch=sm_90 %t/proven-shared-subscripts.ptx -o /dev/null
#include <carbide/carbide.hpp>

namespace proofs {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1))
void sums(carbide::span<const float> in, unsigned offset, carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d();
  auto lid = carbide::thread::local_index();
  auto lane = carbide::thread::lane();
  const unsigned tx = carbide::thread::thread_idx().x, ty = carbide::thread::thread_idx().y;
  auto tile = carbide::block::shared<float, 256>();
  auto few = carbide::block::shared<float, 4>();
  // CHECK: tile[::carbide::detail::in_range(lid)] = in[lid.get()];
  tile[lid] = in[lid.get()];
  // CHECK: if (lid.get() < 4) few[::carbide::detail::in_range(lid.get())] = 1.f;
  if (lid.get() < 4) few[lid.get()] = 1.f;
  carbide::block::sync();
  float sum = 0.f;
  // CHECK: for (unsigned k = 0; k < 32; ++k) sum += tile[::carbide::detail::in_range(ty * 32 + k)];
  for (unsigned k = 0; k < 32; ++k) sum += tile[ty * 32 + k];
  // CHECK: sum += lane.get() < 4 ? few[::carbide::detail::in_range(lane.get())] : 0.f;
  sum += lane.get() < 4 ? few[lane.get()] : 0.f;
  // CHECK: if (tx < 16) sum += tile[::carbide::detail::in_range(tx + 240)];
  if (tx < 16) sum += tile[tx + 240];

  // One past the end for the last row of threads: checked.
  // CHECK: for (unsigned k = 0; k <= 32; ++k) sum += tile[ty * 32 + k];
  for (unsigned k = 0; k <= 32; ++k) sum += tile[ty * 32 + k];
  // A run-time value: checked.
  // CHECK: sum += tile[offset];
  sum += tile[offset];
  // tx - 1 wraps around for thread 0: checked.
  // CHECK: sum += tile[tx - 1];
  sum += tile[tx - 1];
  // A variable assigned after its declaration: checked.
  unsigned moved = tx;
  moved *= 9;
  // CHECK: sum += tile[moved];
  sum += tile[moved];
  // Only one side of an || holds: checked.
  // CHECK: if (tx < 16 || ty < 2) sum += tile[tx + 240];
  if (tx < 16 || ty < 2) sum += tile[tx + 240];
  // An unsigned comparison that fails says nothing about a signed value: checked.
  const int shifted = int(tx) - 8;
  // CHECK: if (!(shifted >= 8u)) sum += tile[shifted];
  if (!(shifted >= 8u)) sum += tile[shifted];
  if (float* element = out.get_mut(own)) *element = sum;
}

}  // namespace proofs
